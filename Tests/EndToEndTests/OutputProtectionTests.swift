import Foundation
import TestSupport
import XCTest

/// Outputs never replace inputs or each other, and a failed run leaves existing files alone
/// (issue 27, items 6 to 9 and 14, and the batch results rough edges).
final class OutputProtectionTests: XCTestCase {
    private static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("IdentityTests/Fixtures").path
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }
    override func tearDown() { folder = nil }

    private func facetrack(_ arguments: [String]) throws -> Tools.Result { try Tools.run(Tools.facetrack, arguments) }

    /// A plain test-pattern clip of `seconds` (no faces).
    private func clip(_ name: String, seconds: Double = 0.2, format: [String] = []) throws -> String {
        let path = folder.file(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-t", String(seconds), "-pix_fmt", "yuv420p",
                          "-c:v", "libx264", "-preset", "ultrafast"] + format + [path])
        return path
    }

    private func md5(_ path: String) throws -> String { try Tools.run("md5sum", [path]).stdout.prefix(32).description }

    /// Results records by path.
    private func records(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// clip.mov, clip.mp4 and clip.mov.mp4 in one folder: three inputs, three sets of outputs;
    /// a rerun skips all three, --force redoes all three, each into its own files.
    func testBatchOutputNamesAreUniquePerInput() throws {
        let frames = ["clip.mov": 5, "clip.mp4": 10, "clip.mov.mp4": 15]
        for (name, count) in frames { _ = try clip("in/" + name, seconds: Double(count) / 25, format: ["-f", "mp4"]) }
        let out = folder.file("out")
        for (run, extra) in [("first", [String]()), ("rerun", []), ("forced", ["--force"])] {
            let results = folder.file(run + ".jsonl")
            let result = try facetrack(["batch", folder.file("in"), "--out", out, "--outputs", "csv,landmarks", "--detector", "none",
                                        "--results", results, "-q"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            let byName = Dictionary(uniqueKeysWithValues: try records(results).map {
                (($0["path"] as? String ?? "") as NSString).lastPathComponent as String
            }.map { ($0, $0) })
            XCTAssertEqual(Set(byName.keys), Set(frames.keys), run)
            for record in try records(results) {
                let name = ((record["path"] as? String ?? "") as NSString).lastPathComponent
                XCTAssertEqual(record["status"] as? String, run == "rerun" ? "skipped" : "done", "\(run): \(name)")
                if run != "rerun" { XCTAssertEqual(record["frames"] as? Int, frames[name], "\(run): \(name)") }
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(names, ["clip.mov.csv", "clip.mov.landmarks.csv", "clip.mov.mp4.csv", "clip.mov.mp4.landmarks.csv",
                               "clip.mp4.csv", "clip.mp4.landmarks.csv"])
    }

    /// --results naming an input video, or a planned output (this shard's or not), is refused
    /// before any work; the video is intact.
    func testResultsFileIsNeitherAnInputNorAPlannedOutput() throws {
        let video = try clip("rin/s1.mp4")
        _ = try clip("rin/s2.mp4")
        let before = try md5(video)
        let out = folder.file("rout")
        let cases: [(results: String, mentions: String)] = [
            (video, "names the input s1.mp4"),
            (out + "/s2.csv", "is where batch writes the csv output of s2.mp4"),
            (out + "/index.html", "is where batch writes its index.html"),
        ]
        for (results, mentions) in cases {
            let run = try facetrack(["batch", folder.file("rin"), "--out", out, "--outputs", "csv", "--report", "--detector", "none",
                                     "--results", results, "--shard", "0/2", "-q"])
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains(mentions), run.stderr)
        }
        XCTAssertEqual(try md5(video), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/s1.csv"), "nothing processed")
        // Some other file is not grown with records.
        let notes = folder.file("notes.txt")
        try "my notes\n".write(toFile: notes, atomically: false, encoding: .utf8)
        let other = try facetrack(["batch", folder.file("rin"), "--out", out, "--outputs", "csv", "--detector", "none",
                                   "--results", notes, "-q"])
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.stderr.contains("notes.txt: exists and is not a results file"), other.stderr)
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
    }

    /// A full disk under --results: one line, exit 1, no crash.
    func testResultsWriteErrorIsAnErrorNotACrash() throws {
        _ = try clip("rin/s1.mp4")
        let run = try facetrack(["batch", folder.file("rin"), "--out", folder.file("rout"), "--outputs", "csv", "--detector", "none",
                                 "--results", "/dev/full", "-q"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, "facetrack: error: /dev/full: cannot write the results file (No space left on device)\n")
        // Messages to a full standard error are dropped, not a crash.
        let messages = try Tools.run("bash", ["-c", "\"$0\" process \"$1\" --csv \"$2\" --detector none 2>/dev/full",
                                               Tools.facetrack, folder.file("rin/s1.mp4"), folder.file("s1.csv")])
        XCTAssertEqual(messages.status, 0)
    }

    /// A resumed run keeps the earlier run's records: the report of the results still counts the
    /// frames done before.
    func testResumedBatchKeepsEarlierResults() throws {
        _ = try clip("rin/s1.mp4", seconds: 0.4)
        let results = folder.file("r.jsonl"), out = folder.file("rout")
        for _ in 0..<2 {
            let run = try facetrack(["batch", folder.file("rin"), "--out", out, "--outputs", "csv", "--detector", "none",
                                     "--results", results, "-q"])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        XCTAssertEqual(try records(results).map { $0["status"] as? String }, ["done", "skipped"])
        let merged = try facetrack(["merge-results", results, "--json"])
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["frames"] as? Int, 10, merged.stdout)
    }

    /// merge-results with a damaged line: exit 1 and -o is not written (an existing file stays).
    func testMergeResultsDoesNotWriteMergedFileFromDamagedInput() throws {
        let good = #"{"faces":1,"frames":1,"path":"/a.mp4","seconds":1,"status":"done","tracks":1}"#
        let damaged = folder.file("d.jsonl"), merged = folder.file("m.jsonl")
        try (good + "\n{\"faces\":1,\"fra\n").write(toFile: damaged, atomically: false, encoding: .utf8)
        try "earlier\n".write(toFile: merged, atomically: false, encoding: .utf8)
        let run = try facetrack(["merge-results", damaged, "-o", merged])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("d.jsonl:2: not a results record (truncated or damaged line); \(merged) not written"),
                      run.stderr)
        XCTAssertEqual(try String(contentsOfFile: merged, encoding: .utf8), "earlier\n")
    }

    /// `process --known kk --csv kk/grace.jpg` refuses to write over the reference photo; so do
    /// detect's outputs, and --eye-sprite and --cascade files are inputs too.
    func testEveryInputIsProtectedAgainstEveryOutput() throws {
        let known = folder.file("kk")
        try FileManager.default.createDirectory(atPath: known, withIntermediateDirectories: true)
        let photo = known + "/grace.jpg"
        try FileManager.default.copyItem(atPath: Self.photos + "/photo_hopper_1.jpg", toPath: photo)
        let before = try md5(photo)
        let video = try clip("v.mp4")
        let sprite = folder.file("sprite.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=red:size=16x16", "-frames:v", "1", sprite])
        let runs: [([String], String)] = [
            (["process", video, "--known", known, "--csv", photo, "--accuracy", "low"], "output path is a --known photo"),
            (["process", video, "--known", known, "--report", photo, "--accuracy", "low"], "output path is a --known photo"),
            (["detect", folder.file("sprite.png"), "--known", known, "--csv", photo, "--accuracy", "low"], "output path is the input file"),
            (["process", video, "-o", folder.file("o.mp4"), "--eye-sprite", sprite, "--csv", sprite, "--detector", "none"],
             "output path is the --eye-sprite picture"),
        ]
        for (arguments, mentions) in runs {
            let run = try facetrack(arguments)
            XCTAssertNotEqual(run.status, 0, "\(arguments)")
            XCTAssertTrue(run.stderr.contains(mentions), "\(arguments): \(run.stderr)")
        }
        XCTAssertEqual(try md5(photo), before, "the reference photo is intact")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sprite)).prefix(4), Data([0x89, 0x50, 0x4E, 0x47]), "still a PNG")
    }

    /// `find -o prev.jsonl` where no video can be read leaves prev.jsonl as it was.
    func testFindWithEveryVideoFailingLeavesTheOutputAlone() throws {
        let previous = folder.file("prev.jsonl")
        try "{\"video\":\"earlier\",\"ranges\":[]}\n".write(toFile: previous, atomically: false, encoding: .utf8)
        let run = try facetrack(["find", "--face", Self.photos + "/photo_hopper_1.jpg", folder.file("nope.mp4"), "-o", previous,
                                 "--accuracy", "low", "-q"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: previous, encoding: .utf8), "{\"video\":\"earlier\",\"ranges\":[]}\n")
        XCTAssertEqual(folder.contents().filter { $0.contains("partial") }, [])
    }
}
