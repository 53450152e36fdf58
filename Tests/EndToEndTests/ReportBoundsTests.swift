import Foundation
import TestSupport
import XCTest

/// Readers bound every number and the report's work follows the rows (issue 27, items 11 to 13),
/// reports written during a run name people (item 10), and the report's rough edges.
final class ReportBoundsTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }
    override func tearDown() { folder = nil }

    /// Runs facetrack under 30 s and 4 GB of address space (a build without the bounds would run
    /// for minutes or take all the memory).
    private func facetrack(_ arguments: [String]) throws -> Tools.Result {
        try Tools.run("bash", ["-c", "ulimit -v 4000000; exec timeout 30 \"$@\"", "bash", Tools.facetrack] + arguments)
    }

    /// A tracks CSV with one ordinary row and then `row`.
    private func csv(_ row: String, header: String = "frame,time,track_id,x,y,width,height,confidence") throws -> String {
        let path = folder.file("t.csv")
        try "\(header)\n0,0,1,10,10,40,40,0.9\n\(row)\n".write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Huge times, frames, coordinates and negative IDs: one line naming file, line and column,
    /// exit 1, nothing left at the output (not a SIGILL, a minutes-long run or a 4 TB allocation).
    func testAbsurdValuesAreRefusedNamingLineAndColumn() throws {
        let cases: [(row: String, message: String)] = [
            ("1,1e20,1,10,10,40,40,0.9", "t.csv: line 3, column 2: time '1e20' is out of range (-1e9 to 1e9 seconds)"),
            ("1,1e300,1,10,10,40,40,0.9", "line 3, column 2: time '1e300' is out of range"),
            ("1,1e12,1,10,10,40,40,0.9", "line 3, column 2: time '1e12' is out of range"),
            ("1000000000000,1,1,10,10,40,40,0.9", "line 3, column 1: frame '1000000000000' is out of range (0 to 1e10)"),
            ("1,0.04,-1,10,10,40,40,0.9", "line 3, column 3: track_id '-1' is out of range"),
            ("1,0.04,1,1e9,10,40,40,0.9", "line 3, column 4: x '1e9' is out of range (-1e6 to 1e6 pixels)"),
            ("1,0.04,1,10,10,40,4e6,0.9", "line 3, column 7: height '4e6' is out of range (0 to 1e6 pixels)"),
        ]
        for (row, message) in cases {
            let run = try facetrack(["report", try csv(row), "-o", folder.file("r.html")])
            XCTAssertEqual(run.status, 1, "\(row): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(row): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertEqual(folder.contents(), ["t.csv"], "nothing left at the output")
        }
        // eval reads the same bounds: file:line:column.
        let truth = try csv("1,0.04,1,10,10,40,40,1")
        let pred = folder.file("p.csv")
        try "frame,time,track_id,x,y,width,height,confidence\n1,1e20,1,10,10,40,40,0.9\n".write(toFile: pred, atomically: false, encoding: .utf8)
        let eval = try facetrack(["eval", "--truth", truth, "--pred", pred])
        XCTAssertEqual(eval.status, 1)
        XCTAssertTrue(eval.stderr.contains("p.csv:2:2: time '1e20' is out of range"), eval.stderr)
    }

    /// Large but possible values: a frame in the billions and a time of years take no more memory
    /// or time than a small file (the old code allocated per frame: 7.8 GB for frame 2e9).
    func testMemoryAndTimeFollowRowsNotValues() throws {
        let path = try csv("9000000000,400000000,2,10,10,40,40,0.9")
        let run = try Tools.run("bash", ["-c", "ulimit -v 4000000; exec timeout 30 /usr/bin/time -f %M \"$@\"", "bash",
                                         Tools.facetrack, "report", path, "-o", folder.file("r.html"), "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let kilobytes = Int(run.stderr.split(separator: "\n").last ?? "") ?? .max
        XCTAssertLessThan(kilobytes, 200_000, "peak memory \(kilobytes) kB")
        let html = try String(contentsOfFile: folder.file("r.html"), encoding: .utf8)
        XCTAssertLessThan(html.components(separatedBy: "class=\"tick\"").count, 40, "a bounded axis")
        XCTAssertTrue(html.contains("<dt>Frames</dt><dd>9000000001</dd>"))
    }

    /// Negative times are drawn from the earliest one (not clamped to 0:00:00.000), with their sign.
    func testNegativeTimesAreShownWithTheirSign() throws {
        let path = folder.file("neg.csv")
        try "frame,time,track_id,x,y,width,height,confidence\n0,-7,1,10,10,40,40,0.9\n1,-6.96,1,10,10,40,40,0.9\n"
            .write(toFile: path, atomically: false, encoding: .utf8)
        let run = try facetrack(["report", path, "-o", folder.file("r.html"), "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let html = try String(contentsOfFile: folder.file("r.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<title>track 1: -0:00:07.000 to -0:00:06.920"), "tooltip with the sign")
        XCTAssertTrue(html.contains("<td>-0:00:07.000</td>"), "table with the sign")
    }

    /// --summary: 1e308 in exponent form, not 309 digits; a number JSON cannot hold is named with its position.
    func testSummaryNumbersAndErrors() throws {
        let path = try csv("1,0.04,1,10,10,40,40,0.9")
        let summary = folder.file("s.json")
        try #"{"big": 1e308, "tiny": -1e-300, "mean": 2.5}"#.write(toFile: summary, atomically: false, encoding: .utf8)
        let run = try facetrack(["report", path, "--summary", summary, "-o", folder.file("r.html"), "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let html = try String(contentsOfFile: folder.file("r.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<dt>big</dt><dd>1e+308</dd>"))
        XCTAssertTrue(html.contains("<dt>tiny</dt><dd>-1e-300</dd>"))
        XCTAssertTrue(html.contains("<dt>mean</dt><dd>2.500</dd>"))
        try "{\n  \"big\": 1e999}".write(toFile: summary, atomically: false, encoding: .utf8)
        let bad = try facetrack(["report", path, "--summary", summary, "-o", folder.file("r2.html")])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("s.json: cannot read (not a JSON summary: Number 1e999 is not representable in Swift, at line 2, column 10)"),
                      bad.stderr)
    }

    /// --video on a text file is "not a video"; a detect CSV says what it is; a folder is a folder.
    func testWrongInputsSayWhatTheyAre() throws {
        let text = folder.file("notimage.jpg")
        try "not an image\n".write(toFile: text, atomically: false, encoding: .utf8)
        let video = try facetrack(["report", try csv("1,0.04,1,10,10,40,40,0.9"), "--video", text, "-o", folder.file("r.html")])
        XCTAssertEqual(video.status, 1)
        XCTAssertTrue(video.stderr.contains("notimage.jpg: no video frame could be decoded") || video.stderr.contains("notimage.jpg: not a media file"),
                      video.stderr)
        let detect = try csv("x.jpg,0,0,,10,10,40,40,0.9", header: "image,frame,time,track_id,x,y,width,height,confidence")
        let page = try facetrack(["report", detect, "-o", folder.file("d.html")])
        XCTAssertEqual(page.status, 1)
        XCTAssertTrue(page.stderr.contains("a facetrack detect CSV (faces per image, no tracks)"), page.stderr)
        for command in [["report", folder.path, "-o", folder.file("x.html")], ["eval", "--truth", folder.path, "--pred", detect],
                        ["merge-results", folder.path]] {
            let run = try facetrack(command)
            XCTAssertEqual(run.status, 1)
            XCTAssertTrue(run.stderr.contains("is a directory, not a file"), "\(command): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("NSCocoaErrorDomain"), run.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("r.html")))
    }

    /// process --known --report and batch --report --known: the page names the persons, as
    /// `facetrack report` does on the run's CSV.
    func testReportsWrittenDuringARunNamePersons() throws {
        let known = folder.file("known")
        try FileManager.default.createDirectory(atPath: known, withIntermediateDirectories: true)
        let photos = Self.root.appendingPathComponent("Tests/IdentityTests/Fixtures").path
        try FileManager.default.copyItem(atPath: photos + "/photo_hopper_1.jpg", toPath: known + "/grace.jpg")
        try FileManager.default.copyItem(atPath: photos + "/photo_astronaut_1.jpg", toPath: known + "/eileen.jpg")
        let clip = folder.file("in/cut.mp4")
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try Tools.ffmpeg(["-i", Self.root.appendingPathComponent("samples/cut-aba.mp4").path, "-t", "3", "-c", "copy", clip])
        let page = folder.file("run.html")
        let run = try facetrack(["process", clip, "--known", known, "--csv", folder.file("t.csv"), "--report", page,
                                 "--accuracy", "low", "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let batch = try facetrack(["batch", folder.file("in"), "--out", folder.file("out"), "--outputs", "csv", "--report",
                                   "--known", known, "--accuracy", "low", "-q"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        for html in [try String(contentsOfFile: page, encoding: .utf8),
                     try String(contentsOfFile: folder.file("out/cut.report.html"), encoding: .utf8)] {
            XCTAssertTrue(html.contains("<dt>Persons</dt><dd>2</dd>"))
            XCTAssertTrue(html.contains("<th class=\"l\">person</th>"))
            XCTAssertTrue(html.contains("<text class=\"person\" x=\"2\"") && html.contains(">grace</text>"), "timeline grouped by person")
        }
    }
}
