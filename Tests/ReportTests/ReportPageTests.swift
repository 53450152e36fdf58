import FaceCore
import Foundation
@testable import Report
import XCTest

/// The page: self-contained, every track listed with its picture, header facts, escaping, index.
final class ReportPageTests: XCTestCase {
    private func model(persons: Bool = false) -> TrackModel {
        var rows: [FaceRow] = []
        for f in 0..<50 {
            rows.append(FaceRow(frame: f, time: Double(f) / 25, trackID: 1, box: Rect(x: 5, y: 5, width: 20, height: 20),
                                confidence: 0.8, person: persons ? "<Ada>" : nil))
            if f >= 20 {
                rows.append(FaceRow(frame: f, time: Double(f) / 25, trackID: 3, box: Rect(x: 50, y: 5, width: 20, height: 20),
                                    confidence: 0.6, predicted: f % 2 == 0))
            }
        }
        return TrackModel(FaceRows(rows: rows, hasPersonColumn: persons))
    }

    func testPageIsSelfContainedAndListsEveryTrack() {
        let fakeJPEG = Data([0xFF, 0xD8, 0xFF, 0xD9])
        let html = ReportPage.html(model: model(), details: ReportDetails(input: "a/clip & co.mp4", tracksFile: "t.csv"),
                                   thumbnails: [1: Thumbnail(small: fakeJPEG, large: fakeJPEG)])
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        for id in [1, 3] {
            XCTAssertTrue(html.contains("<tr id=\"track-\(id)\""), "track \(id) row")
            XCTAssertTrue(html.contains("id=\"timeline-\(id)\""), "track \(id) timeline row")
        }
        XCTAssertTrue(html.contains("<a href=\"#face-1\"><img class=\"thumb\" alt=\"track 1\""))
        XCTAssertTrue(html.contains("<div class=\"zoom\" id=\"face-1\">"), "the larger crop, shown by :target")
        XCTAssertFalse(html.contains("id=\"face-3\""), "no picture without a thumbnail")
        XCTAssertTrue(html.contains("Faces in clip &amp; co.mp4"), "escaped")
        // Nothing is fetched: no external URL, stylesheet link or script source.
        for forbidden in ["http://", "https://", "<link", "<script src", "@import", "url("] {
            XCTAssertFalse(html.contains(forbidden), forbidden)
        }
        XCTAssertTrue(html.contains("@page{size:A4"))
        XCTAssertTrue(html.contains("<dt>Tracks</dt><dd>2</dd>"))
        XCTAssertTrue(html.contains("<dt>Resolution</dt><dd>unknown (no video given)</dd>"))
        XCTAssertFalse(html.contains("<dt>Persons</dt>"))
        XCTAssertEqual(html.components(separatedBy: "<svg ").count - 1, 4, "timeline and three plots")
    }

    func testPersonsInHeaderAndTableEscaped() {
        let html = ReportPage.html(model: model(persons: true), details: ReportDetails(input: "clip.mp4"))
        XCTAssertTrue(html.contains("<dt>Persons</dt><dd>1</dd>"))
        XCTAssertTrue(html.contains("<td class=\"l\">&lt;Ada&gt;</td>"))
        XCTAssertTrue(html.contains("class=\"person\""))
        XCTAssertFalse(html.contains("<Ada>"))
    }

    func testClockFormats() {
        XCTAssertEqual(HTMLText.clock(3725.9), "1:02:05")
        XCTAssertEqual(HTMLText.preciseClock(61.0404), "0:01:01.040")
        XCTAssertEqual(HTMLText.axisLabel(2.5, step: 0.5), "0:00:02.5")
        XCTAssertEqual(HTMLText.tickStep(duration: 3600), 600)
    }

    func testSummaryFactsKeepBooleansApartFromNumbers() throws {
        let path = NSTemporaryDirectory() + "report-summary-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"seconds": 1.5, "frames": 100, "ok": true, "passes": {"full": 3}, "tracks": [1, 2]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let facts = try ReportBuilder.summaryFacts(path)
        XCTAssertEqual(facts.map { "\($0.0)=\($0.1)" }, ["frames=100", "ok=yes", "passes full=3", "seconds=1.500", "tracks=2 entries"])
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ReportBuilder.summaryFacts(path))
    }

    func testIndexLinksRelativeToTheIndex() {
        XCTAssertEqual(BatchIndexPage.link(from: "/out/index.html", to: "/out/sub/a b.report.html"), "sub/a%20b.report.html")
        XCTAssertEqual(BatchIndexPage.link(from: "/out/index.html", to: "/elsewhere/a.html"), "file:///elsewhere/a.html")
        let html = BatchIndexPage.html([IndexEntry(input: "a.mp4", status: "done", duration: 4, frames: 100, faces: 10, tracks: 1,
                                                   link: "a.report.html"),
                                        IndexEntry(input: "b.mp4", status: "failed", error: "b.mp4: no such file")],
                                       source: "r.jsonl")
        XCTAssertEqual(html.components(separatedBy: "<tr class=\"file\">").count - 1, 2)
        XCTAssertTrue(html.contains("<a href=\"a.report.html\">report</a>"))
        XCTAssertTrue(html.contains("1 done, 0 skipped, 1 failed"))
    }
}
