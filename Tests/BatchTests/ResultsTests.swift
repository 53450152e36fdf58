import Batch
import Foundation
import TestSupport
import XCTest

final class ResultsTests: XCTestCase {
    func testRecordIsOneSortedJSONLineAndReadsBack() throws {
        let record = ResultRecord(path: "/v/a b.mp4", status: .failed, seconds: 0.5, error: "/v/a b.mp4: bad \"data\"")
        let line = record.jsonLine()
        XCTAssertFalse(line.contains("\n"))
        XCTAssertTrue(line.hasPrefix("{\"error\":\"/v/a b.mp4: bad \\\"data\\\"\",\"faces\":0,\"frames\":0,\"path\":"), line)
        XCTAssertEqual(try JSONDecoder().decode(ResultRecord.self, from: Data(line.utf8)), record)
    }

    func testWriterAppendsOneLinePerRecordFromManyThreads() throws {
        let folder = try TemporaryFolder()
        let writer = try ResultsWriter(path: folder.file("r.jsonl"))
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            try? writer.append(ResultRecord(path: "/v/\(index).mp4", status: .done, frames: index))
        }
        writer.close()
        let report = try ResultsReport(files: [folder.file("r.jsonl")])
        XCTAssertEqual(report.files, 200)
        XCTAssertEqual(report.frames, (0..<200).reduce(0, +))
        XCTAssertEqual(report.invalidLines, [])
    }

    /// Shards combine; a repeated input counts once with its best status; bad lines are named.
    func testReportMergesShards() {
        let a = [ResultRecord(path: "/v/1.mp4", status: .done, frames: 10, faces: 3, tracks: 1, seconds: 2),
                 ResultRecord(path: "/v/2.mp4", status: .failed, seconds: 0.1, error: "/v/2.mp4: damaged")]
        let b = [ResultRecord(path: "/v/3.mp4", status: .skipped),
                 ResultRecord(path: "/v/1.mp4", status: .failed, error: "locked"),
                 ResultRecord(path: "/v/4.mp4", status: .failed, error: "locked"),
                 ResultRecord(path: "/v/4.mp4", status: .done, frames: 5, seconds: 1)]
        let text = { (records: [ResultRecord]) in records.map { $0.jsonLine() }.joined(separator: "\n") }
        let report = ResultsReport(contents: [("a", text(a)), ("b", text(b) + "\nnot json\n")])
        XCTAssertEqual([report.files, report.done, report.skipped, report.failed], [4, 2, 1, 1])
        XCTAssertEqual(report.frames, 15)
        XCTAssertEqual(report.seconds, 3.1, accuracy: 1e-9)
        XCTAssertEqual(report.duplicates, 2)
        XCTAssertEqual(report.failures, [ResultsReport.Failure(path: "/v/2.mp4", error: "/v/2.mp4: damaged")])
        XCTAssertEqual(report.invalidLines, ["b:5"])
        XCTAssertEqual(report.records.map(\.path), ["/v/1.mp4", "/v/2.mp4", "/v/3.mp4", "/v/4.mp4"])
        XCTAssertTrue(report.text.hasPrefix("4 files: 2 done, 1 skipped, 1 failed\n"), report.text)
        XCTAssertTrue(report.text.contains("\nfailed: /v/2.mp4: damaged"), report.text)
        let decoded = try? JSONDecoder().decode(ResultsReport.self, from: Data(report.json.utf8))
        XCTAssertEqual(decoded?.failed, 1)
        XCTAssertEqual(report.mergedLines.split(separator: "\n").count, 4)
    }

    func testMissingResultsFileIsAnError() {
        XCTAssertThrowsError(try ResultsReport(files: ["/nonexistent/r.jsonl"])) { error in
            XCTAssertEqual("\(error)", "/nonexistent/r.jsonl: no such results file")
        }
    }

    func testProgressLine() {
        XCTAssertEqual(BatchProgress.line(total: 8, done: 2, skipped: 1, failed: 1, frames: 300, elapsed: 3),
                       "files 4/8 (1 skipped, 1 failed), 300 frames, 100.0 fps, ETA 4 s")
        XCTAssertEqual(BatchProgress.line(total: 2, done: 2, skipped: 0, failed: 0, frames: 10, elapsed: 1),
                       "files 2/2, 10 frames, 10.0 fps")
    }
}
