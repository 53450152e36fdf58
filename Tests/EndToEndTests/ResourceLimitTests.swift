import Foundation
import TestSupport
import XCTest

/// Out of memory and out of file descriptors: one line that says so, exit non-zero, nothing left
/// behind (issue 27, item 15, and the "too many open files" rough edge).
final class ResourceLimitTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }
    override func tearDown() { folder = nil }

    /// Runs facetrack under `limit` (a ulimit option and value), killed after 120 s.
    private func limited(_ limit: String, _ arguments: [String]) throws -> Tools.Result {
        try Tools.run("bash", ["-c", "ulimit \(limit); exec timeout -s KILL 120 \"$@\"", "bash", Tools.facetrack] + arguments,
                      directory: folder.path)
    }

    private func assertOneLine(_ result: Tools.Result, mentions: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(result.status == 1 || result.status == 2, "status \(result.status): \(result.stderr)", file: file, line: line)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(mentions.contains { result.stderr.lowercased().contains($0.lowercased()) }, result.stderr, file: file, line: line)
        XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr, file: file, line: line)
        XCTAssertEqual(folder.contents(), [], "no output and no .partial file left", file: file, line: line)
    }

    /// The campaign's case: a 1080p clip under 1 GB of address space. The run ends with one line
    /// (out of memory; or, on a machine with more cores, the limit is refused up front).
    func testOutOfMemoryIsOneLineAndLeavesNothing() throws {
        let run = try limited("-v 1000000", ["process", Self.samples + "/hd-small-face.mp4", "-o", "o.mp4", "--csv", "o.csv", "-q"])
        assertOneLine(run, mentions: ["out of memory", "the address-space limit (ulimit -v)"])
        let tiny = try limited("-v 400000", ["process", Self.samples + "/hd-small-face.mp4", "--csv", "o.csv", "-q"])
        assertOneLine(tiny, mentions: ["the address-space limit (ulimit -v) is 390 MB"])
    }

    /// A crash (here a SIGSEGV sent mid-run) prints one line and removes the temporary files:
    /// under an address-space limit a Swift allocation that fails traps in the runtime the same way.
    func testCrashIsOneLineAndLeavesNoTemporaryFile() throws {
        let script = "\"$@\" 2>err.txt & p=$!; for i in $(seq 300); do ls -A | grep -q partial && break; sleep 0.1; done; "
            + "kill -SEGV $p; wait $p; echo $? >status.txt"
        _ = try Tools.run("bash", ["-c", script, "bash", Tools.facetrack, "process", Self.samples + "/hd-small-face.mp4",
                                   "-o", "o.mp4", "--csv", "o.csv", "-q"], directory: folder.path)
        let stderr = try String(contentsOfFile: folder.file("err.txt"), encoding: .utf8)
        XCTAssertEqual(stderr, "facetrack: error: internal error (the program crashed); please report it with the command "
                       + "that caused it (FACETRACK_FFMPEG_LOG=error shows the details)\n")
        XCTAssertEqual(try String(contentsOfFile: folder.file("status.txt"), encoding: .utf8), "139\n", "died of the signal")
        XCTAssertEqual(folder.contents().sorted(), ["err.txt", "status.txt"], "no .partial file left")
    }

    /// Too few file descriptors: "too many open files", not a damaged model or a damaged video,
    /// and never a crash of libdispatch's event loop (it opens its descriptors at start-up; a
    /// limit that leaves fewer than 8 free is refused there).
    func testTooManyOpenFilesSaysSo() throws {
        let model = try limited("-n 13", ["process", Self.samples + "/cut-aba.mp4", "-o", "o.mp4", "--csv", "o.csv", "--report", "o.html",
                                          "--tracks-summary", "o.json", "--mot", "o.mot", "-q"])
        assertOneLine(model, mentions: ["too many open files"])
        XCTAssertFalse(model.stderr.contains("damaged"), model.stderr)
        let video = try limited("-n 7", ["process", Self.samples + "/cut-aba.mp4", "--csv", "o.csv", "-q"])
        assertOneLine(video, mentions: ["too many open files"])
        XCTAssertFalse(video.stderr.contains("not a media file"), video.stderr)
        let refused = try limited("-n 6", ["process", Self.samples + "/cut-aba.mp4", "--csv", "o.csv", "-q"])
        assertOneLine(refused, mentions: ["the open-file limit (ulimit -n) is 6"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
    }
}
