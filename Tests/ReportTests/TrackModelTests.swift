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
        XCTAssertEqual(model.facesOverTime[3], 2, "23 frames: one bin per frame")
        XCTAssertEqual(model.facesOverTime[10], 0)
    }

    /// A steady face's crop runs every other frame: a lone predicted frame between two detections
    /// is drawn with them, while two predicted frames in a row, or one at a track's end, still show.
    func testALonePredictedFrameBetweenDetectionsIsDrawnAsDetected() {
        let rows = (0...8).map { row($0, 1, predicted: $0 % 2 == 1) }
            + [row(9, 1), row(10, 1, predicted: true), row(11, 1, predicted: true), row(12, 1), row(13, 1, predicted: true)]
        let track = TrackModel(FaceRows(rows: rows)).tracks[0]
        XCTAssertEqual(track.intervals.map { [$0.firstFrame, $0.lastFrame] }, [[0, 9], [10, 11], [12, 12], [13, 13]])
        XCTAssertEqual(track.intervals.map(\.predicted), [false, true, false, true])
        XCTAssertEqual(track.detectedFrames, 7, "the table still counts detections only")
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

/// The timeline follows the video's own clock (issue 27, items 5 and 13).
final class TrackModelClockTests: XCTestCase {
    private func rows(from start: Double, frames: Int = 50) -> FaceRows {
        FaceRows(rows: (0..<frames).map { frame in
            FaceRow(frame: frame, time: start + Double(frame) / 25, trackID: 1, box: Rect(x: 10, y: 10, width: 40, height: 40),
                    confidence: 0.9)
        })
    }

    /// The x of every detected bar and the text of every tooltip.
    private func bars(_ model: TrackModel) -> (x: [Double], titles: [String]) {
        let svg = TimelineSVG(model: model).render()
        let x = svg.components(separatedBy: "<rect class=\"detected\" x=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
        let titles = svg.components(separatedBy: "<title>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        return (x, titles)
    }

    /// A video starting at -8.6 s (`-output_ts_offset -10`): the bar starts at the timeline's left
    /// edge, not thousands of units before it, and the tooltip keeps the sign.
    func testNegativeStartTimeDrawsOnTheTimeline() {
        let model = TrackModel(rows(from: -8.6), videoFrames: 50, videoDuration: 2, videoStart: -8.6)
        let (x, titles) = bars(model)
        XCTAssertEqual(x, [TimelineSVG.labelWidth])
        XCTAssertEqual(titles, ["track 1: -0:00:08.600 to -0:00:06.600, 50 frames detected"])
        XCTAssertEqual(HTMLText.preciseClock(-0.0004), "0:00:00.000", "no minus zero")
        let csvOnly = TrackModel(rows(from: -8.6))
        XCTAssertEqual(bars(csvOnly).x, [TimelineSVG.labelWidth], "without the video, the earliest time is the origin")
    }

    /// An MPEG-TS copy starts at 1001.4 s: the bar spans the whole timeline, the axis shows that clock.
    func testPositiveStartTimeIsTheOrigin() {
        let model = TrackModel(rows(from: 1001.4), videoFrames: 50, videoDuration: 2, videoStart: 1001.4)
        XCTAssertEqual(bars(model).x, [TimelineSVG.labelWidth])
        XCTAssertTrue(TimelineSVG(model: model).render().contains(">0:16:42.0<"), "a tick at 1002 s")
    }

    /// One face on frame 10^12: the faces-over-time plot has 300 bins, not a trillion frames.
    func testMemoryFollowsRowsNotTheHighestFrame() {
        let far = FaceRow(frame: 1_000_000_000_000, time: 4e10, trackID: 1, box: Rect(x: 0, y: 0, width: 10, height: 10), confidence: 1)
        let model = TrackModel(FaceRows(rows: [far]))
        XCTAssertEqual(model.facesOverTime.count, 300)
        XCTAssertEqual(model.facesOverTime.reduce(0, +), 300.0 / 1_000_000_000_001, accuracy: 1e-15)
        let svg = TimelineSVG(model: model).render()
        XCTAssertLessThan(svg.components(separatedBy: "class=\"tick\"").count, 20, "a bounded number of ticks")
    }

    /// Every frame lands in exactly one bin, and the bins' frame counts add up.
    func testBinsCoverEveryFrameOnce() {
        for frames in [1, 7, 299, 300, 301, 1000, 123_457] {
            let bins = min(300, frames)
            var total = 0
            for b in 0..<bins {
                let first = TrackModel.firstFrame(ofBin: b, frames: frames, bins: bins)
                let next = TrackModel.firstFrame(ofBin: b + 1, frames: frames, bins: bins)
                XCTAssertGreaterThan(next, first, "\(frames) frames, bin \(b)")
                XCTAssertEqual(TrackModel.bin(of: first, frames: frames, bins: bins), b)
                total += next - first
            }
            XCTAssertEqual(total, frames)
        }
    }
}
