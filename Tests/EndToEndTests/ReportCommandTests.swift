import Foundation
import TestSupport
import XCTest

/// `facetrack report`, `process --report` and `batch --report` as a user runs them, on committed
/// sample clips (their truth files are tracks CSVs with known track IDs).
final class ReportCommandTests: XCTestCase {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    private func facetrack(_ arguments: [String]) throws -> Tools.Result { try Tools.run(Tools.facetrack, arguments) }

    /// The track rows of a page that carry a JPEG thumbnail, by ID.
    static func tracksWithThumbnails(_ html: String) -> Set<Int> {
        var ids = Set<Int>()
        for part in html.components(separatedBy: "<tr id=\"track-").dropFirst() {
            guard let row = part.components(separatedBy: "</tr>").first,
                  row.contains("<img class=\"thumb\""), row.contains("src=\"data:image/jpeg;base64,/9j/"),
                  let id = Int(row.prefix { $0.isNumber }) else { continue }
            ids.insert(id)
        }
        return ids
    }

    func testReportFromTruthCSVWithVideo() throws {
        let folder = try TemporaryFolder()
        let out = folder.file("cut-aba.html")
        let run = try facetrack(["report", Self.samples + "/cut-aba.truth.csv", "--video", Self.samples + "/cut-aba.mp4", "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("2 tracks, 2 thumbnails"), run.stderr)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertEqual(Self.tracksWithThumbnails(html), [1, 2])
        XCTAssertTrue(html.contains("<dt>Resolution</dt><dd>640 × 360, 25 fps</dd>"), "from the video")
        XCTAssertTrue(html.contains("<dt>Frames</dt><dd>114</dd>"))
        // Hopper (track 1) leaves at the first cut and comes back at the second: two bars in her row.
        let row1 = try XCTUnwrap(html.components(separatedBy: "id=\"timeline-1\"").dropFirst().first?.components(separatedBy: "</g>").first)
        XCTAssertEqual(row1.components(separatedBy: "<rect class=\"detected\"").count - 1, 2, row1)
        XCTAssertEqual(folder.contents(), ["cut-aba.html"], "no temporary file left")
    }

    func testSummaryFiguresGoInTheHeader() throws {
        let folder = try TemporaryFolder()
        let summary = folder.file("s.json"), out = folder.file("r.html")
        try Data(#"{"confirmed_track_count": 2, "dropped_detection_count": 0, "tracks": [{}, {}]}"#.utf8).write(to: URL(fileURLWithPath: summary))
        let run = try facetrack(["report", Self.samples + "/crossing.truth.csv", "--summary", summary, "-o", out, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(html.contains("<dt>confirmed track count</dt><dd>2</dd>"))
        XCTAssertTrue(html.contains("<span class=\"noimg\">no video</span>"))
    }

    func testProcessWritesTheReportOfItsRun() throws {
        let folder = try TemporaryFolder()
        let csv = folder.file("t.csv"), page = folder.file("run.html")
        let run = try facetrack(["process", Self.samples + "/crossing.mp4", "--csv", csv, "--report", page, "--detector", "blazeface",
                                 "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertEqual(Self.tracksWithThumbnails(html), [1, 2])
        XCTAssertTrue(html.contains("<dt>Detector</dt><dd>blazeface, full model"), "settings of the run")
        XCTAssertTrue(html.contains("<dt>Run time</dt>"))
        XCTAssertTrue(html.contains("<dt>Faces</dt><dd>\(try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").count - 1)</dd>"),
                      "as many faces as CSV rows")
    }

    func testBadInputsAreOneLineErrorsAndLeaveNothing() throws {
        let folder = try TemporaryFolder()
        let out = folder.file("r.html")
        // Missing columns.
        let bad = folder.file("bad.csv")
        try Data("frame,time,x,y\r\n0,0,1,1\r\n".utf8).write(to: URL(fileURLWithPath: bad))
        var run = try facetrack(["report", bad, "-o", out])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("facetrack: error: \(bad): missing columns track_id, width, height, confidence"), run.stderr)
        // A CSV of a 4.56 s clip against a 2 s video.
        run = try facetrack(["report", Self.samples + "/cut-aba.truth.csv", "--video", Self.samples + "/no-face.mp4", "-o", out])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("does not match the video") && run.stderr.contains("frame 113"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        // Unwritable output.
        run = try facetrack(["report", Self.samples + "/cut-aba.truth.csv", "-o", folder.file("missing/r.html")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("cannot write output"), run.stderr)
        // process --report checks its page before reading a frame.
        run = try facetrack(["process", Self.samples + "/crossing.mp4", "--report", folder.file("missing/run.html"), "--detector", "none"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.hasPrefix("facetrack: error: \(folder.file("missing/run.html")): cannot write output"), run.stderr)
        // Usage.
        run = try facetrack(["report", Self.samples + "/cut-aba.truth.csv"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(folder.contents(), ["bad.csv"], "nothing at the output path, no temporary file")
    }

    func testBatchWritesAPagePerInputAndAnIndex() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        for name in ["a.mp4", "b.mp4"] {
            try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "0.5", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuv420p", folder.file("in/" + name)])
        }
        let out = folder.file("out"), results = folder.file("r.jsonl")
        let run = try facetrack(["batch", folder.file("in"), "--out", out, "--outputs", "csv", "--report", "--results", results,
                                 "--detector", "none", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(),
                       ["a.csv", "a.report.html", "b.csv", "b.report.html", "index.html"])
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        XCTAssertEqual(index.components(separatedBy: "<tr class=\"file\">").count - 1, 2)
        XCTAssertTrue(index.contains("<a href=\"a.report.html\">report</a>") && index.contains("<a href=\"b.report.html\">report</a>"))
        XCTAssertTrue(index.contains("<td>0:00:00.500</td>"), "duration of each input")
        // The same index from the results file.
        let again = folder.file("index2.html")
        let fromResults = try facetrack(["report", results, "-o", again])
        XCTAssertEqual(fromResults.status, 0, fromResults.stderr)
        let second = try String(contentsOfFile: again, encoding: .utf8)
        XCTAssertTrue(second.contains("<a href=\"out/a.report.html\">report</a>"), "links relative to the index")
        // A results file with a stray line is refused.
        try Data("{\"path\":\"x\"}\nnot json\n".utf8).write(to: URL(fileURLWithPath: folder.file("bad.jsonl")))
        let refused = try facetrack(["report", folder.file("bad.jsonl"), "-o", folder.file("i3.html")])
        XCTAssertEqual(refused.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("i3.html")))
    }
}
