import Foundation
import TestSupport
import XCTest

/// The rough edges of issue 27's campaign: each gets a clear message or a sensible behaviour.
final class RoughEdgeTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let samples = root.appendingPathComponent("samples").path
    private static let photos = root.appendingPathComponent("Tests/IdentityTests/Fixtures").path
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }
    override func tearDown() { folder = nil }

    private func facetrack(_ arguments: [String]) throws -> Tools.Result {
        try Tools.run(Tools.facetrack, arguments, directory: folder.path)
    }

    /// A usage error: exit 2, the message, nothing written in the folder.
    private func assertUsageError(_ arguments: [String], mentions: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = folder.contents()
        let run = try facetrack(arguments)
        XCTAssertEqual(run.status, 2, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(mentions), "expected '\(mentions)' in: \(run.stderr)", file: file, line: line)
        XCTAssertEqual(folder.contents(), before, "nothing written", file: file, line: line)
    }

    // MARK: Options

    func testOptionLookingValuesRepeatedOutputsAndStrayOptions() throws {
        let clip = Self.samples + "/cut-aba.mp4"
        try assertUsageError(["process", clip, "--csv", "--quiet"],
                             mentions: "option --csv needs a value, and '--quiet' is an option; for a value starting with '-' write --csv=--quiet")
        try assertUsageError(["process", clip, "-o", "--csv", "a.csv"], mentions: "option --output needs a value, and '--csv' is an option")
        try assertUsageError(["process", "--", "-x.mp4", "--csv", "c.csv"],
                             mentions: "got 3: '-x.mp4', '--csv', 'c.csv'; after -- every argument is an input, options included")
        try assertUsageError(["process", clip, "--csv", "a.csv", "--csv", "b.csv"], mentions: "--csv is given twice ('a.csv' and 'b.csv')")
        try assertUsageError(["process", clip, "-o", "a.mp4", "-o", "b.mp4"], mentions: "--output is given twice")
        try assertUsageError(["process", clip, "--csv", "a.csv", "--model", "huge"],
                             mentions: "--model is an option of the blazeface detector, and this run uses centerface")
        try assertUsageError(["process", clip, "--csv", "a.csv", "--detector", "blazeface", "--input-size", "320"],
                             mentions: "--input-size is an option of the centerface detector")
        try assertUsageError(["batch", clip, "--out", "bo", "--extensions", ""], mentions: "invalid value '' for --extensions")
        // Negative numbers are still values, and --name=VALUE takes a value starting with '-'.
        try assertUsageError(["process", clip, "--csv", "a.csv", "--crf", "-5"], mentions: "invalid value '-5' for --crf")
        let named = try facetrack(["process", clip, "--csv=-dash.csv", "--detector", "none", "-q"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("-dash.csv")))
    }

    /// A run that writes nothing says so, even with --quiet; a batch that finds no input leaves no folder.
    func testRunsThatWriteNothingSaySo() throws {
        let run = try facetrack(["process", Self.samples + "/cut-aba.mp4", "--detector", "none", "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("faces are counted but nothing is written"), run.stderr)
        try FileManager.default.createDirectory(atPath: folder.file("empty"), withIntermediateDirectories: true)
        let batch = try facetrack(["batch", "empty", "--out", "bo"])
        XCTAssertEqual(batch.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("bo")), "no output folder for nothing")
    }

    // MARK: Inputs

    func testDevicesProcFilesAndStandardInputAreNamed() throws {
        for (input, mentions) in [("/dev/zero", "/dev/zero: not a regular file (a character device)"),
                                  ("/dev/urandom", "/dev/urandom: not a regular file (a character device)"),
                                  ("/proc/self/maps", "/proc/self/maps: not a regular file (a virtual file of /proc or /sys)"),
                                  ("-", "-: reading standard input as '-' is not supported; give a file name (a pipe can be read as /dev/stdin)")] {
            let run = try facetrack(["process", input, "--csv", "x.csv"])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(mentions), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("x.csv")))
        }
        // A pipe is read as it comes.
        let piped = try Tools.run("bash", ["-c", "cat \"$0\" | \"$1\" process /dev/stdin --csv \"$2\" --detector none -q",
                                           Self.samples + "/cut-aba.mp4", Tools.facetrack, folder.file("p.csv")])
        XCTAssertEqual(piped.status, 0, piped.stderr)
    }

    /// An mp3 with cover art is one picture: no "file ends early: -0.03 s" warning.
    func testCoverArtIsOnePictureNotACutFile() throws {
        let mp3 = folder.file("cover.mp3")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "sine=d=2", "-i", Self.photos + "/photo_hopper_1.jpg", "-map", "0:a", "-map", "1:v",
                          "-c:a", "libmp3lame", "-c:v", "mjpeg", "-disposition:v", "attached_pic", mp3])
        let run = try facetrack(["process", mp3, "--csv", "c.csv", "--accuracy", "low"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("ends early"), run.stderr)
        XCTAssertTrue(run.stderr.contains("1 frames, 1 faces"), run.stderr)
    }

    /// A huge picture: the run says first that it will be slow, and its summary's seconds cover the
    /// whole run (writing the picture included), not only the frames' pipeline.
    func testHugePictureSaysItIsSlowAndTheSummaryTimesTheWholeRun() throws {
        let picture = folder.file("big.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=7100x7100", "-frames:v", "1", picture])
        let started = Date()
        let run = try facetrack(["process", picture, "--csv", "b.csv", "-o", "out.png", "--detector", "none"])
        let wall = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("facetrack: warning: \(picture): a 7100 x 7100 picture (50 MP): ") == true, run.stderr)
        let summary = try XCTUnwrap(lines.last)
        let seconds = try XCTUnwrap(summary.components(separatedBy: ", ").first { $0.hasSuffix(" s") }.flatMap { Double($0.dropLast(2)) })
        XCTAssertGreaterThan(seconds, 0.6 * wall, "summary \(seconds) s of a \(wall) s run: \(summary)")
        let detect = try facetrack(["detect", picture, "--csv", "d.csv", "--detector", "none"])
        XCTAssertTrue(detect.stderr.contains("a 7100 x 7100 picture (50 MP): detecting in full-resolution tiles takes a while"), detect.stderr)
    }

    // MARK: Known people

    private func known(_ files: [String: String]) throws -> String {
        let path = folder.file("known")
        for (name, photo) in files {
            let target = path + "/" + name
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.photos + "/" + photo, toPath: target)
        }
        return path
    }

    /// One name from several places is refused; a link out of the folder is not a person; --keep
    /// and --only need --anonymize; --face errors speak of --face.
    func testKnownPeopleFolderRoughEdges() throws {
        let clip = Self.samples + "/cut-aba.mp4"
        let merged = try known(["alice.jpg": "photo_hopper_1.jpg", "alice/a.jpg": "photo_astronaut_1.jpg"])
        let run = try facetrack(["process", clip, "--known", merged, "--csv", "x.csv", "--accuracy", "low"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("known/alice: the name 'alice' comes from alice/ and alice.jpg; one person's photos go in one place"),
                      run.stderr)
        try FileManager.default.removeItem(atPath: merged)

        let looped = try known(["carol.jpg": "photo_hopper_1.jpg"])
        try FileManager.default.createSymbolicLink(atPath: looped + "/dave", withDestinationPath: "..")
        let loop = try facetrack(["process", clip, "--known", looped, "--csv", "x.csv", "--accuracy", "low"])
        XCTAssertEqual(loop.status, 2, loop.stderr)
        XCTAssertTrue(loop.stderr.contains("known/dave: a link leading out of the known-people folder (not followed)"), loop.stderr)
        try FileManager.default.removeItem(atPath: looped + "/dave")

        try assertUsageError(["process", clip, "-o", "x.mp4", "--known", looped, "--keep", "carol"],
                             mentions: "invalid people (--keep/--only): expected --anonymize blur|pixelate|fill")
        let noFace = folder.file("noface.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=gray:size=200x200", "-frames:v", "1", noFace])
        let find = try facetrack(["find", "--face", noFace, clip, "--accuracy", "low"])
        XCTAssertEqual(find.status, 2, find.stderr)
        XCTAssertTrue(find.stderr.contains("noface.png: no face found in the --face photo"), find.stderr)
        XCTAssertFalse(find.stderr.contains("known person"), find.stderr)
    }

    /// An 8000x8000 known photo is scaled down while it is read: a few seconds, not half a minute
    /// of tiles, and the person is still named.
    func testHugeKnownPhotoIsScaledDown() throws {
        let path = folder.file("known")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Tools.ffmpeg(["-i", Self.photos + "/photo_hopper_1.jpg", "-vf", "scale=8000:8000", "-q:v", "5", path + "/grace.jpg"])
        let started = Date()
        let run = try Tools.run("/usr/bin/time", ["-f", "%M", Tools.facetrack, "process", Self.samples + "/cut-aba.mp4", "--known", path,
                                                   "--csv", folder.file("t.csv"), "--accuracy", "low", "-q"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThan(Int(run.stderr.split(separator: "\n").last ?? "") ?? .max, 450_000, "peak kB: \(run.stderr)")
        XCTAssertLessThan(seconds, 20, "seconds")
        // The person column, then the shot column (issue 28) at the end.
        XCTAssertTrue(try String(contentsOfFile: folder.file("t.csv"), encoding: .utf8).contains(",grace,0\n"))
    }
}
