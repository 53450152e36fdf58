import Foundation
import TestSupport
import XCTest

/// CSV and JSON Lines in every dialect (CRLF, BOM), pipes and `-`, and damaged results lines (issue 16).
final class TextDialectTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    override func setUpWithError() throws { folder = try TemporaryFolder() }

    /// `text` rewritten with CRLF line endings and, when asked, a UTF-8 byte-order mark.
    private func dialect(_ text: String, bom: Bool, to name: String) throws -> String {
        let path = folder.file(name)
        let body = Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        try ((bom ? Data([0xEF, 0xBB, 0xBF]) : Data()) + body).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testEvalReadsCRLFAndBOM() throws {
        let truth = samples.appendingPathComponent("zoom.truth.csv").path
        let text = try String(contentsOfFile: truth, encoding: .utf8)
        for bom in [false, true] {
            let crlfTruth = try dialect(text, bom: bom, to: "t\(bom).csv")
            let crlfPred = try dialect(text, bom: !bom, to: "p\(bom).csv")
            let result = try Tools.run(Tools.facetrack, ["eval", "--truth", crlfTruth, "--pred", crlfPred, "--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            XCTAssertEqual(object?["recall"] as? Double, 1, "bom \(bom): \(result.stdout)")
        }
    }

    private func results(_ records: [String]) -> String { records.joined(separator: "\n") + "\n" }
    private let done = #"{"path":"a.mp4","status":"done","frames":10,"faces":2,"tracks":1,"seconds":0.5}"#
    private let failed = #"{"path":"b.mp4","status":"failed","frames":0,"faces":0,"tracks":0,"seconds":0.1,"error":"b.mp4: bad"}"#

    func testMergeResultsReadsCRLFBOMAndStandardInput() throws {
        let crlf = try dialect(results([done]), bom: true, to: "a.jsonl")
        let result = try Tools.run(Tools.facetrack, ["merge-results", "--json", crlf])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\"done\":1") || result.stdout.contains("\"done\" : 1"), result.stdout)
        let piped = try Tools.run("/bin/sh", ["-c", "cat \"$1\" | \"$0\" merge-results - && cat \"$1\" | \"$0\" merge-results /dev/stdin",
                                              Tools.facetrack, crlf])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stderr.contains("no such"), piped.stderr)
    }

    func testMergeResultsTruncatedLineIsAnErrorNamingFileAndLine() throws {
        let path = folder.file("cut.jsonl")
        try Data((results([done]) + String(failed.prefix(40))).utf8).write(to: URL(fileURLWithPath: path))
        let result = try Tools.run(Tools.facetrack, ["merge-results", path])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("cut.jsonl:2: not a results record"), result.stderr)
        XCTAssertTrue(result.stdout.contains("1 unreadable records"), result.stdout)
    }

    func testBatchListWithCRLFAndBOM() throws {
        let clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 0.2, size: "160x120")
        let list = try dialect("clip.mp4\n", bom: true, to: "list.txt")
        let result = try Tools.run("/bin/sh", ["-c", "cd \"$1\" && \"$0\" batch --list list.txt --out out --outputs csv --detector none --quiet",
                                               Tools.facetrack, folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("out/clip.csv")), "\(folder.contents())")
    }

    func testControlCharactersInFileNamesAreEscaped() throws {
        let result = try Tools.run(Tools.facetrack, ["process", folder.file("a\nfacetrack: error: fake.mp4"), "--csv", folder.file("x.csv")])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("a\\nfacetrack"), result.stderr)
    }

    func testPermissionDeniedIsSaidFirst() throws {
        let clip = folder.file("locked.mp4")
        try Clips.pattern(clip, seconds: 0.2, size: "160x120")
        chmod(clip, 0)
        defer { chmod(clip, 0o644) }
        // Root reads anything: run as nobody when we are root.
        let command = getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", Tools.facetrack] : [Tools.facetrack]
        chmod(folder.path, 0o755)
        let result = try Tools.run("/usr/bin/env", command + ["process", clip, "--detector", "none"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("locked.mp4: permission denied"), result.stderr)
    }
}
