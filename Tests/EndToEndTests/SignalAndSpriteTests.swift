import Foundation
import TestSupport
import XCTest

/// SIGTERM handled like the first Ctrl-C, and --eye-sprite errors and sizes (issue 16).
final class SignalAndSpriteTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }

    /// Starts facetrack, sends SIGTERM once `ready` holds (or after 3 s), waits; returns status and stderr.
    private func terminate(_ arguments: [String], when ready: @escaping () -> Bool) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.facetrack)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(3)
        while !ready() && Date() < deadline && process.isRunning { usleep(20_000) }
        kill(process.processIdentifier, SIGTERM)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    func testSIGTERMFinishesLikeCtrlCAndExits143() throws {
        let clip = folder.file("long.mp4")
        try Clips.pattern(clip, seconds: 60, size: "160x120", rate: 25)
        let out = folder.file("out.mp4"), csv = folder.file("out.csv")
        // Frames under way: 0.8 s after the outputs were opened (the whole run takes about 2 s alone).
        var opened: Date?
        let (status, stderr) = try terminate(["process", clip, "-o", out, "--csv", csv, "--detector", "none", "--threads", "1"]) {
            if opened == nil, self.folder.contents().contains(where: { $0.contains(".partial-") }) { opened = Date() }
            return opened.map { Date().timeIntervalSince($0) > 0.8 } ?? false
        }
        XCTAssertEqual(status, 143, stderr)
        XCTAssertTrue(stderr.contains("terminated"), stderr)
        XCTAssertFalse(folder.contents().contains { $0.contains(".partial-") }, "\(folder.contents())")
        XCTAssertTrue(FileManager.default.fileExists(atPath: csv), "outputs finished with the frames done")
        XCTAssertGreaterThan(try Tools.packetCount(out, stream: "v:0"), 0)
    }

    /// A stop before the first frame is decoded: the same exit status, one line saying so, no file.
    func testSIGTERMBeforeTheFirstFrameExits143AndWritesNothing() throws {
        let clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 20, size: "160x120", rate: 25)
        let out = folder.file("out.mp4")
        // As soon as the outputs are opened (the signal handler is in place by then).
        let (status, stderr) = try terminate(["process", clip, "-o", out, "--detector", "none", "--threads", "1"]) {
            self.folder.contents().contains { $0.contains(".partial-") }
        }
        XCTAssertEqual(status, 143, stderr)
        XCTAssertFalse(stderr.contains("error"), stderr)
        XCTAssertFalse(folder.contents().contains { $0.contains(".partial-") }, "\(folder.contents())")
        if stderr.contains("before the first frame") { XCTAssertFalse(FileManager.default.fileExists(atPath: out)) }
    }

    func testEyeSpriteErrorsNameTheOption() throws {
        let clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 0.2, size: "160x120")
        let text = folder.file("notes.png")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: text))
        let result = try Tools.run(Tools.facetrack, ["process", clip, "-o", folder.file("o.mp4"), "--eye-sprite", text, "--detector", "none"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.hasPrefix("facetrack: error: --eye-sprite: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("notes.png"), result.stderr)
    }

    /// Peak memory (KB) of one run, from /usr/bin/time.
    private func peakKB(_ arguments: [String]) throws -> Int {
        let result = try Tools.run("/usr/bin/time", ["-f", "peak %M"] + [Tools.facetrack] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        let line = result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
        return Int(line?.dropFirst(5) ?? "") ?? 0
    }

    func testHugeEyeSpriteAndMaskPictureAreScaledDownOnLoad() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw XCTSkip("needs /usr/bin/time") }
        let photo = folder.file("p.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120", "-frames:v", "1", photo])
        let small = folder.file("small.jpg"), huge = folder.file("huge.jpg")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=red:size=64x64", "-frames:v", "1", small])
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=red:size=6000x6000", "-frames:v", "1", huge])
        let base = ["process", photo, "-o", folder.file("o.mp4"), "--detector", "none", "--quiet"]
        // The --anonymize image:FILE picture is bounded the same way.
        for (option, prefix) in [("--eye-sprite", ""), ("--anonymize", "image:")] {
            let growth = try peakKB(base + [option, prefix + huge]) - peakKB(base + [option, prefix + small])
            // Decoding the 6000x6000 JPEG costs 54 MB; one full-size BGRA copy alone would be 144 MB.
            XCTAssertLessThan(growth, 144_000, "a huge \(option) picture is not kept at full size (\(growth) KB more)")
        }
    }
}
