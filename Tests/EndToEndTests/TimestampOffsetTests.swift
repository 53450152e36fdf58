import Foundation
import TestSupport
import XCTest

/// Videos whose clock does not start at zero (MPEG-TS copies start at 1.4 s, camera .mts files
/// anywhere, `-output_ts_offset` below zero) get their reports, and a report that fails keeps
/// the run's other outputs (issue 27, items 4 and 5).
final class TimestampOffsetTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }
    override func tearDown() { folder = nil }

    /// Three seconds of cut-aba (faces in every frame) copied into MPEG-TS with `extra` muxer options.
    private func transportStream(_ name: String, _ extra: [String] = []) throws -> String {
        let path = folder.file(name)
        try Tools.ffmpeg(["-i", Self.samples + "/cut-aba.mp4", "-t", "3", "-c", "copy"] + extra + [path])
        return path
    }

    private func facetrack(_ arguments: [String]) throws -> Tools.Result { try Tools.run(Tools.facetrack, arguments) }

    /// `ffmpeg -c copy x.ts` (start 1.48 s) and a copy starting at 1001.4 s: process with --csv and
    /// --report succeeds, the CSV is kept, `report --video` on the same pair succeeds too.
    func testTransportStreamsStartingAboveZeroGetTheirReport() throws {
        for (name, extra) in [("plain.ts", [String]()), ("late.ts", ["-output_ts_offset", "1000"])] {
            let video = try transportStream(name, extra)
            let csv = folder.file(name + ".csv"), page = folder.file(name + ".html")
            let run = try facetrack(["process", video, "--csv", csv, "--report", page, "--accuracy", "low", "-q"])
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: csv), "\(name): the CSV is kept")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            XCTAssertFalse(ReportCommandTests.tracksWithThumbnails(html).isEmpty, name)
            let again = try facetrack(["report", csv, "--video", video, "-o", folder.file(name + ".again.html")])
            XCTAssertEqual(again.status, 0, "\(name): \(again.stderr)")
        }
        // A CSV that really runs past the video still fails, naming the video's span.
        let video = folder.file("late.ts")
        try "frame,time,track_id,x,y,width,height,confidence\n0,1010,1,10,10,40,40,0.9\n"
            .write(toFile: folder.file("past.csv"), atomically: false, encoding: .utf8)
        let past = try facetrack(["report", folder.file("past.csv"), "--video", video, "-o", folder.file("past.html")])
        XCTAssertEqual(past.status, 1, past.stderr)
        XCTAssertTrue(past.stderr.contains("the CSV reaches 1010.000 s, the video runs from 1001.4"), past.stderr)
    }

    /// `batch --report` on a camera-style .mts file: done, with its CSV and report.
    func testBatchReportOnTransportStream() throws {
        let inputs = folder.file("in")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        _ = try transportStream("in/cam.mts", ["-f", "mpegts", "-output_ts_offset", "1000"])
        let out = folder.file("out")
        let run = try facetrack(["batch", inputs, "--out", out, "--outputs", "csv", "--report", "--accuracy", "low", "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        for file in ["cam.csv", "cam.report.html", "index.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/" + file), file)
        }
    }

    /// A video starting at -8.6 s: bars on the timeline (not at x = -3376), signed times in the
    /// tooltips, thumbnails.
    func testNegativeStartTimeReport() throws {
        let video = try transportStream("neg.ts", ["-output_ts_offset", "-10", "-avoid_negative_ts", "disabled"])
        let csv = folder.file("neg.csv"), page = folder.file("neg.html")
        let run = try facetrack(["process", video, "--csv", csv, "--report", page, "--accuracy", "low", "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let xs = html.components(separatedBy: "<rect class=\"detected\" x=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
        XCTAssertFalse(xs.isEmpty)
        XCTAssertTrue(xs.allSatisfy { $0 >= 150 && $0 <= 1000 }, "\(xs)")
        XCTAssertTrue(html.contains("<title>track 1: -0:00:08.600 to "), "signed times")
        XCTAssertFalse(ReportCommandTests.tracksWithThumbnails(html).isEmpty)
    }

    /// When the report cannot be made (its input was a pipe, read once), the tracks CSV stays and
    /// the error says so.
    func testFailedReportKeepsTheOtherOutputs() throws {
        let video = try transportStream("plain.ts")
        let csv = folder.file("kept.csv"), page = folder.file("r.html")
        let run = try Tools.run("bash", ["-c", "cat \"$0\" | \"$1\" process /dev/stdin --csv \"$2\" --report \"$3\" --accuracy low -q",
                                         video, Tools.facetrack, csv, page])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("r.html: report not written: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("; kept \(csv)"), run.stderr)
        XCTAssertGreaterThan(try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").count, 10)
        XCTAssertFalse(FileManager.default.fileExists(atPath: page))
        XCTAssertEqual(folder.contents().filter { $0.contains("partial") }, [])
    }
}
