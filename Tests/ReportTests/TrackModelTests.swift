import FaceCore
import Foundation
@testable import Report
import XCTest

/// Track intervals, detected and predicted spans, the best frame, persons.
final class TrackModelTests: XCTestCase {
    private func row(_ frame: Int, _ id: Int?, size: Double = 40, confidence: Double = 0.9, predicted: Bool = false,
                     yaw: Double? = nil, person: String? = nil) -> FaceRow {
        FaceRow(frame: frame, time: Double(frame) / 25, trackID: id, box: Rect(x: 10, y: 10, width: size, height: size),
                confidence: confidence, predicted: predicted, yaw: yaw, person: person)
    }

    func testIntervalsSplitAtGapsAndAtPredictedFrames() {
        // Frames 0-4 detected, 5-6 predicted, 7 detected; gone 8-19; back 20-22.
        var rows = (0...4).map { row($0, 1) } + [row(5, 1, predicted: true), row(6, 1, predicted: true), row(7, 1)]
        rows += (20...22).map { row($0, 1) } + [row(3, nil)]
        let model = TrackModel(FaceRows(rows: rows))
        XCTAssertEqual(model.tracks.count, 1)
        let track = model.tracks[0]
        XCTAssertEqual(track.intervals.map { [$0.firstFrame, $0.lastFrame] }, [[0, 4], [5, 6], [7, 7], [20, 22]])
        XCTAssertEqual(track.intervals.map(\.predicted), [false, true, false, false])
        XCTAssertEqual(track.frames, 11)
        XCTAssertEqual(track.detectedFrames, 9)
        XCTAssertEqual(track.firstTime, 0)
        XCTAssertEqual(track.lastTime, 22.0 / 25, accuracy: 1e-9)
        XCTAssertEqual(model.faces, 12, "the face without a track counts as a face")
        XCTAssertEqual(model.frameCount, 23)
        XCTAssertEqual(model.facesPerFrame[3], 2)
        XCTAssertEqual(model.facesPerFrame[10], 0)
    }

    func testBestFrameIsLargestMostFrontalMostConfidentDetection() {
        let rows = [row(0, 1, size: 40, confidence: 0.9), row(1, 1, size: 60, confidence: 0.9, yaw: 60),
                    row(2, 1, size: 55, confidence: 0.95, yaw: 5), row(3, 1, size: 80, predicted: true),
                    row(4, 1, size: 55, confidence: 0.5, yaw: 0)]
        XCTAssertEqual(TrackModel(FaceRows(rows: rows)).tracks[0].best.frame, 2,
                       "larger but turned (1), predicted (3) and less confident (4) lose")
    }

    func testAttributeShares() {
        var rows = (0..<4).map { row($0, 7) }
        rows[0].smiling = true; rows[1].smiling = false; rows[2].smiling = true
        rows[0].eyesClosed = true; rows[1].eyesClosed = false; rows[2].eyesClosed = false; rows[3].eyesClosed = false
        let track = TrackModel(FaceRows(rows: rows)).tracks[0]
        XCTAssertEqual(track.smilingShare!, 2.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(track.eyesClosedShare!, 0.25, accuracy: 1e-9)
        XCTAssertNil(TrackModel(FaceRows(rows: [row(0, 1)])).tracks[0].smilingShare)
    }

    func testTimelineGroupsTracksByPerson() {
        let rows = [row(0, 1, person: "Zoe"), row(0, 2, person: "Ada"), row(0, 3), row(1, 4, person: "Zoe")]
        let model = TrackModel(FaceRows(rows: rows, hasPersonColumn: true))
        XCTAssertEqual(model.persons, ["Ada", "Zoe"])
        let groups = TimelineSVG(model: model).groups()
        XCTAssertEqual(groups.map(\.person), ["Ada", "Zoe", "no person"])
        XCTAssertEqual(groups.map { $0.tracks.map(\.id) }, [[2], [1, 4], [3]])
        let svg = TimelineSVG(model: model).render()
        // Headings come before their tracks' rows.
        let ada = svg.range(of: ">Ada</text>")!.lowerBound, zoe = svg.range(of: ">Zoe</text>")!.lowerBound
        let track2 = svg.range(of: "id=\"timeline-2\"")!.lowerBound, track4 = svg.range(of: "id=\"timeline-4\"")!.lowerBound
        XCTAssertTrue(ada < track2 && track2 < zoe && zoe < track4)
        // Without a person column there are no headings.
        XCTAssertEqual(TimelineSVG(model: TrackModel(FaceRows(rows: rows))).groups().map(\.person), [nil])
    }

    func testTimelineBarsTellDetectedFromPredictedWithTimes() {
        let rows = (0..<10).map { row($0, 1, predicted: $0 >= 6) }
        let svg = TimelineSVG(model: TrackModel(FaceRows(rows: rows))).render()
        XCTAssertEqual(svg.components(separatedBy: "<rect class=\"detected\"").count - 1, 1)
        XCTAssertEqual(svg.components(separatedBy: "<rect class=\"predicted\"").count - 1, 1)
        XCTAssertTrue(svg.contains("<title>track 1: 0:00:00.000 to 0:00:00.240, 6 frames detected</title>"), svg)
        XCTAssertTrue(svg.contains("<title>track 1: 0:00:00.240 to 0:00:00.400, 4 frames predicted</title>"), svg)
    }

    /// An hour at 25 fps with the detector on every third frame: a few bars, not 30,000.
    func testLongVideoBarsAreMergedBelowAPixel() {
        let frames = 90_000
        var rows: [FaceRow] = []
        rows.reserveCapacity(frames)
        for f in 0..<frames where !(40_000..<50_000).contains(f) { rows.append(row(f, 1, predicted: f % 3 != 0)) }
        let model = TrackModel(FaceRows(rows: rows))
        XCTAssertLessThanOrEqual(abs(model.tracks[0].intervals.count - 2 * (frames - 10_000) / 3), 3)
        let svg = TimelineSVG(model: model).render()
        let bars = svg.components(separatedBy: "<rect ").count - 1
        XCTAssertGreaterThanOrEqual(bars, 2, "the gap stays visible")
        XCTAssertLessThan(bars, 20)
        XCTAssertTrue(svg.contains("class=\"predicted\""), "two of three frames are predicted")
        XCTAssertTrue(svg.contains(">1:00:00</text>") || svg.contains(">0:55:00</text>"), "h:mm:ss axis")
    }
}
