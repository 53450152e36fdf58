import Foundation
import TestSupport
import XCTest

/// Every bad input: one line naming the file, a non-zero exit, no traceback, nothing left at the output.
final class BadInputTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var clip: String!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 1, size: "160x120", extra: ["-movflags", "+faststart"])
    }

    /// Runs `process INPUT -o OUT --csv CSV`, then checks status, the one error line and that no output exists.
    private func assertRejected(input: String, output: String? = nil, extra: [String] = [], status: Int32 = 1,
                                mentions: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let out = output ?? folder.file("out.mp4")
        let csv = folder.file("out.csv")
        let before = folder.contents()
        let result = try Tools.run(Tools.facetrack, ["process", input, "-o", out, "--csv", csv, "--detector", "none"] + extra)
        XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("facetrack: error: ") ?? false, result.stderr, file: file, line: line)
        XCTAssertTrue(lines.first?.contains(mentions) ?? false, "expected '\(mentions)' in: \(result.stderr)", file: file, line: line)
        XCTAssertLessThanOrEqual(lines.count, 2, "one line (plus a --help hint for usage errors): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(folder.contents(), before, "nothing written", file: file, line: line)
    }

    func testMissingFile() throws { try assertRejected(input: folder.file("nope.mp4"), mentions: "nope.mp4: no such file") }
    func testDirectory() throws { try assertRejected(input: folder.path, mentions: "is a directory") }

    func testTextFileRenamedMP4() throws {
        let text = folder.file("notes.mp4")
        try "hello".write(toFile: text, atomically: false, encoding: .utf8)
        try assertRejected(input: text, mentions: "notes.mp4: not a media file")
    }

    func testZeroByteFile() throws {
        let empty = folder.file("empty.mp4")
        try Data().write(to: URL(fileURLWithPath: empty))
        try assertRejected(input: empty, mentions: "empty.mp4: file is empty")
    }

    func testAudioOnlyFile() throws {
        let audio = folder.file("tone.m4a")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "sine", "-t", "0.5", audio])
        try assertRejected(input: audio, mentions: "tone.m4a: has no video stream")
    }

    func testOutputEqualToInput() throws {
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int
        try assertRejected(input: clip, output: clip, mentions: "output path is the input file")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int, sizeBefore, "input untouched")
    }

    func testUnwritableOutputFolder() throws {
        try assertRejected(input: clip, output: folder.file("no/such/folder/out.mp4"), mentions: "cannot write output")
        try assertRejected(input: clip, output: clip + "/out.mp4", mentions: "cannot write output")
    }

    func testUnknownOptionAndBadValue() throws {
        try assertRejected(input: clip, extra: ["--crf", "abc"], status: 2, mentions: "invalid value 'abc' for --crf")
        try assertRejected(input: clip, extra: ["--frobnicate"], status: 2, mentions: "unknown option '--frobnicate'")
        try assertRejected(input: clip, extra: ["--codec", "vp9"], status: 2, mentions: "invalid value 'vp9' for --codec")
        try assertRejected(input: clip, extra: ["--detection", "smart"], status: 2, mentions: "invalid value 'smart' for --detection")
        try assertRejected(input: clip, extra: ["--track-threshold", "1.5"], status: 2,
                           mentions: "invalid value '1.5' for --track-threshold")
        try assertRejected(input: clip, extra: ["--threshold", "0.6", "--track-threshold", "0.4"], status: 2,
                           mentions: "--track-threshold")
    }

    /// An mp4 cut in half: decode what is there, warn, finish a valid output.
    func testTruncatedFileGivesWarningAndValidOutput() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: clip))
        let half = folder.file("half.mp4"), out = folder.file("out.mp4")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: half))
        let result = try Tools.run(Tools.facetrack, ["process", half, "-o", out, "--detector", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: \(half): file ends early"), result.stderr)
        let frames = try Tools.videoFrameTimes(out).count
        XCTAssertGreaterThan(frames, 0)
        XCTAssertLessThan(frames, 25)
    }

    /// Damaged packets mid-stream are skipped, counted and reported in the summary.
    func testCorruptPacketsAreCounted() throws {
        let ts = folder.file("clip.ts"), damaged = folder.file("damaged.ts"), out = folder.file("out.mp4")
        try Tools.ffmpeg(["-i", clip, "-c", "copy", ts])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ts)))
        // Overwrite payload bytes in the middle third, leaving the 188-byte packet headers intact.
        var state: UInt32 = 12345
        for packetStart in stride(from: bytes.count / 3 / 188 * 188, to: bytes.count * 2 / 3, by: 188 * 3) {
            for offset in 20..<60 where packetStart + offset < bytes.count {
                state = state &* 1_103_515_245 &+ 12345
                bytes[packetStart + offset] = UInt8(truncatingIfNeeded: state >> 16)
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let result = try Tools.run(Tools.facetrack, ["process", damaged, "-o", out, "--detector", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("damaged packets skipped") || result.stderr.contains("corrupt frames"), result.stderr)
        XCTAssertGreaterThan(try Tools.videoFrameTimes(out).count, 10)
    }

    func testUsageErrors() throws {
        let noInput = try Tools.run(Tools.facetrack, ["process"])
        XCTAssertEqual(noInput.status, 2)
        XCTAssertTrue(noInput.stderr.contains("process needs an INPUT file"), noInput.stderr)
        let unknown = try Tools.run(Tools.facetrack, ["frobnicate"])
        XCTAssertEqual(unknown.status, 2)
        let version = try Tools.run(Tools.facetrack, ["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("facetrack "))
        for command in ["process", "detect"] {
            let help = try Tools.run(Tools.facetrack, [command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.contains("EXAMPLES"), command)
        }
    }
}
