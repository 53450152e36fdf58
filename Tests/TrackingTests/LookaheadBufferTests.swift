import FaceCore
@testable import Tracking
import XCTest

final class LookaheadBufferTests: XCTestCase {
    private func row(_ serial: Int, _ id: Int?, x: Double, _ source: ObservationSource = .detected) -> TrackedFace {
        var face = TrackedFace(observation: FaceObservation(bounds: Rect(x: x, y: 10, width: 20, height: 20), confidence: 0.9),
                               trackID: id, source: source)
        face.trackSerial = serial
        return face
    }

    /// Pushes `rows` frame by frame, flushes, and returns each frame's written and hidden rows.
    private func run(depth: Int, _ rows: [[TrackedFace]]) -> [(faces: [TrackedFace], hidden: [TrackedFace])] {
        var buffer = LookaheadBuffer<Int>(depth: depth)
        var out: [LookaheadBuffer<Int>.Frame] = []
        for (frame, frameRows) in rows.enumerated() {
            out += buffer.push(frame: frame, time: Double(frame), rows: frameRows, payload: frame)
        }
        out += buffer.flush()
        XCTAssertEqual(out.map(\.payload), Array(rows.indices), "every frame once, in order")
        return out.map { ($0.faces, $0.hidden) }
    }

    func testConfirmedTrackIsWrittenFromItsFirstDetection() {
        let out = run(depth: 4, [[row(1, nil, x: 0)], [row(1, nil, x: 1)], [row(1, 1, x: 2)], [row(1, 1, x: 3)]])
        XCTAssertEqual(out.map { $0.faces.map(\.trackID) }, [[1], [1], [1], [1]])
        XCTAssertTrue(out.allSatisfy { $0.hidden.isEmpty })
    }

    /// Two serials carrying one identity on one frame (re-identification continued a lost track's
    /// ID): one row per ID is written, the detection before the prediction, the other is hidden.
    func testOneRowPerIDPerFrameDetectionFirst() {
        var predicted = row(1, 7, x: 0, .predicted)
        predicted.observation.confidence = 0.99
        var confident = row(2, 7, x: 51)
        confident.observation.confidence = 0.95
        // Serial 1 is found again on frame 2, so its prediction on frame 1 would be written too.
        let out = run(depth: 2, [[row(1, 7, x: 0)], [predicted, row(2, 7, x: 50), row(3, 8, x: 90)],
                                 [row(1, 7, x: 1), confident]])
        XCTAssertEqual(out[1].faces.map(\.trackID), [7, 8])
        XCTAssertEqual(out[1].faces.first?.trackSerial, 2, "the detection is kept")
        XCTAssertEqual(out[1].hidden.map(\.trackSerial), [1])
        XCTAssertEqual(out[2].faces.map(\.trackSerial), [2], "of two detections, the more confident")
        XCTAssertEqual(out[2].hidden.map(\.trackSerial), [1])
    }

    func testFalseStartIsNeverWrittenButStaysHidden() {
        let out = run(depth: 3, [[row(1, nil, x: 0)], [row(1, nil, x: 1)], [], [], []])
        XCTAssertTrue(out.allSatisfy { $0.faces.isEmpty })
        XCTAssertEqual(out[0].hidden.count, 1, "anonymisation still hides it")
        let untracked = run(depth: 2, [[row(0, nil, x: 5)]])
        XCTAssertEqual(untracked[0].faces.count, 0)
        XCTAssertEqual(untracked[0].hidden.count, 1, "a face in no track is hidden, not written")
    }

    func testPredictionsAreWrittenOnlyWhenTheTrackComesBackAndAreInterpolated() {
        let out = run(depth: 5, [[row(1, 1, x: 0)], [row(1, 1, x: 99, .predicted)], [row(1, 1, x: 99, .predicted)],
                                 [row(1, 1, x: 30, .refined)], [row(1, 1, x: 99, .predicted)], [row(1, 1, x: 99, .predicted)]])
        XCTAssertEqual(out[1].faces.first?.observation.bounds.x ?? -1, 10, accuracy: 1e-9, "a third of the way")
        XCTAssertEqual(out[2].faces.first?.observation.bounds.x ?? -1, 20, accuracy: 1e-9)
        XCTAssertEqual(out[3].faces.first?.source, .refined)
        XCTAssertEqual(out.prefix(4).map { $0.faces.first?.unseenFrames }, [0, 1, 1, 0], "frames to the nearest detection")
        XCTAssertTrue(out[4].faces.isEmpty && out[5].faces.isEmpty, "never found again: not written")
        XCTAssertEqual(out[4].hidden.count, 1)
    }

    /// A frame whose crop was skipped (a steady face) is written on the line between the detections
    /// on both sides, eyes included, placed by time; a frame where the face was missed keeps the
    /// prediction's eyes in the interpolated box.
    func testASkippedCropIsWrittenBetweenItsNeighboursEyesIncludedByTime() {
        func face(x: Double, eyeY: Double, _ source: ObservationSource, skipped: Bool = false) -> TrackedFace {
            var observation = FaceObservation(bounds: Rect(x: x, y: 10, width: 20, height: 20), confidence: 0.9)
            observation.leftEye = Point(x: x + 5, y: eyeY)
            observation.rightEye = Point(x: x + 15, y: eyeY)
            var row = TrackedFace(observation: observation, trackID: 1, source: source)
            row.trackSerial = 1
            row.cropSkipped = skipped
            return row
        }
        for skipped in [true, false] {
            var buffer = LookaheadBuffer<Int>(depth: 5)
            var out: [LookaheadBuffer<Int>.Frame] = []
            // Variable frame rate: the middle frame is a quarter of the way in time.
            for (frame, (time, row)) in [(0.0, face(x: 0, eyeY: 14, .refined)),
                                         (0.1, face(x: 99, eyeY: 30, .predicted, skipped: skipped)),
                                         (0.4, face(x: 40, eyeY: 22, .refined))].enumerated() {
                out += buffer.push(frame: frame, time: time, rows: [row], payload: frame)
            }
            out += buffer.flush()
            let middle = out[1].faces[0].observation
            XCTAssertEqual(middle.bounds.x, 10, accuracy: 1e-9, "a quarter of the way by time")
            XCTAssertEqual(middle.leftEye!.x, 15, accuracy: 1e-9, "the eyes follow the box")
            XCTAssertEqual(middle.leftEye!.y, skipped ? 16 : 30, accuracy: 1e-9,
                           skipped ? "a quarter of the way from 14 to 22" : "a miss keeps the prediction's eyes")
        }
    }

    func testBackwardExtensionRecoversEarlierFramesUntilAMissACutOrAnotherFace() {
        var buffer = LookaheadBuffer<Int>(depth: 10)
        // Frames 0-5 held; the track is first detected on frame 4 at x = 40 and on 5 at x = 50.
        let rows: [[TrackedFace]] = [[], [row(2, 7, x: 10)], [], [], [row(1, nil, x: 40)], [row(1, 3, x: 50)]]
        for (frame, frameRows) in rows.enumerated() { _ = buffer.push(frame: frame, time: 0, rows: frameRows, payload: frame) }
        var asked: [(Int, Double)] = []
        let found = buffer.extendBackward(serial: 1, startsShot: { $0 == 9 }) { frame, expected in
            asked.append((frame, expected.x))
            // The face is there on frames 2 and 3, at the speed of the first two detections; frame 1 holds track 2's face.
            return frame >= 1 ? FaceObservation(bounds: Rect(x: expected.x + 1, y: 10, width: 20, height: 20), confidence: 0.6) : nil
        }
        XCTAssertEqual(asked.map(\.0), [3, 2, 1])
        XCTAssertEqual(asked[0].1, 30, accuracy: 1e-9, "first box moved back by one frame's motion")
        XCTAssertEqual(found, 2, "frame 1's face overlaps track 2's row")
        let out = buffer.flush()
        XCTAssertEqual(out[2].faces.map(\.trackID), [3])
        XCTAssertEqual(out[3].faces.map(\.trackID), [3])
        XCTAssertEqual(out[1].faces.map(\.trackID), [7])

        var cut = LookaheadBuffer<Int>(depth: 10)
        for (frame, frameRows) in rows.enumerated() { _ = cut.push(frame: frame, time: 0, rows: frameRows, payload: frame) }
        let beforeCut = cut.extendBackward(serial: 1, startsShot: { $0 == 3 }) { _, expected in
            FaceObservation(bounds: expected, confidence: 0.6)
        }
        XCTAssertEqual(beforeCut, 1, "frame 3 starts the shot: nothing before it")
    }

    func testMasksGoBackAlongTheEarlyMotionWhereTheDetectorFindsTheFaceNoMore() {
        // A face entering from the left: first detected on frame 4 at x = 40, on 5 at x = 50; the
        // detector finds nothing on frames 0-3 (it is partly outside the picture there).
        let rows: [[TrackedFace]] = [[], [], [], [], [row(1, nil, x: 40)], [row(1, 3, x: 50)]]
        var buffer = LookaheadBuffer<Int>(depth: 10)
        for (frame, frameRows) in rows.enumerated() { _ = buffer.push(frame: frame, time: 0, rows: frameRows, payload: frame) }
        XCTAssertEqual(buffer.extendBackward(serial: 1, holdingMasksFor: 3, startsShot: { _ in false }) { _, _ in nil }, 0)
        let out = buffer.flush()
        XCTAssertEqual(out.map(\.faces.count), [0, 0, 0, 0, 1, 1], "masks only: nothing written as the track's rows")
        XCTAssertEqual(out.map(\.hidden.count), [0, 1, 1, 1, 0, 0], "three frames back, no more")
        XCTAssertEqual(out[1...3].map { $0.hidden[0].observation.bounds.x }, [10, 20, 30], "back at 10 px a frame")
        XCTAssertEqual(out[1...3].map { $0.hidden[0].unseenFrames }, [3, 2, 1], "growing with the frames unseen")
        XCTAssertEqual(out[3].hidden[0].unseenSpeed, 0.5, accuracy: 1e-9, "10 px a frame on a 20 px box")
        XCTAssertEqual(out[3].hidden[0].source, .predicted)
        XCTAssertNil(out[3].hidden[0].trackID)

        // Not across a shot boundary, and none without masks.
        var cut = LookaheadBuffer<Int>(depth: 10)
        for (frame, frameRows) in rows.enumerated() { _ = cut.push(frame: frame, time: 0, rows: frameRows, payload: frame) }
        _ = cut.extendBackward(serial: 1, holdingMasksFor: 30, startsShot: { $0 == 3 }) { _, _ in nil }
        XCTAssertEqual(cut.flush().map(\.hidden.count), [0, 0, 0, 1, 0, 0], "frame 3 starts the shot")
        var plain = LookaheadBuffer<Int>(depth: 10)
        for (frame, frameRows) in rows.enumerated() { _ = plain.push(frame: frame, time: 0, rows: frameRows, payload: frame) }
        _ = plain.extendBackward(serial: 1, startsShot: { _ in false }) { _, _ in nil }
        XCTAssertEqual(plain.flush().map(\.hidden.count), [0, 0, 0, 0, 0, 0])
    }

    func testTrackNotLookedAtIsNotMissedAndBirthNeedsTheTrackThreshold() {
        let tracker = Tracker(configuration: TrackerConfiguration(minHits: 3, highThreshold: 0.2, birthThreshold: 0.5))
        let elsewhere: (Rect) -> Bool = { $0.x > 500 }
        _ = tracker.update(frame: 0, time: 0, detections: [face(100, 100)], coverage: nil)
        // Frames 1 and 2 looked only at the right half: the tentative track was not missed.
        for frame in 1...2 {
            let rows = tracker.update(frame: frame, time: Double(frame), detections: [], coverage: elsewhere)
            XCTAssertEqual(rows.map(\.source), [.predicted], "coasting, reported for the look-ahead to decide")
        }
        _ = tracker.update(frame: 3, time: 3, detections: [face(100, 100)], coverage: nil)
        let confirmed = tracker.update(frame: 4, time: 4, detections: [face(100, 100)], coverage: nil)
        XCTAssertEqual(confirmed.first?.trackID, 1, "three detections in a row that looked at it")
        // A missed run where the detector did look ends a tentative track.
        _ = tracker.update(frame: 5, time: 5, detections: [face(700, 100)], coverage: nil)
        _ = tracker.update(frame: 6, time: 6, detections: [], coverage: { _ in true })
        XCTAssertEqual(tracker.forecast(steps: 1).count, 1, "only the confirmed track is left")
        // Between the reporting and the track threshold a face is reported in no track and starts nothing.
        let weak = tracker.update(frame: 7, time: 7, detections: [face(100, 100), face(400, 300, confidence: 0.3)], coverage: nil)
        XCTAssertEqual(weak.map { $0.trackSerial == 0 }, [false, true])
        XCTAssertEqual(tracker.forecast(steps: 1).count, 1)
    }
}
