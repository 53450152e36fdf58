import Attributes
import FaceCore
import XCTest

/// Flags from scores with per-track hysteresis.
final class AttributeStabilizerTests: XCTestCase {
    private func face(track: Int?, left: Double? = 0.3, right: Double? = 0.3, smile: Double? = 0.8,
                      source: ObservationSource = .detected) -> TrackedFace {
        var o = FaceObservation(bounds: Rect(x: 0, y: 0, width: 50, height: 50), confidence: 0.9)
        o.attributeScores = FaceAttributeScores(leftEyeOpenness: left, rightEyeOpenness: right, smile: smile)
        return TrackedFace(observation: o, trackID: track, source: source)
    }

    /// The image-left eye's flag over a sequence of openness values on one track.
    private func leftFlags(_ values: [Double], stabilizer: AttributeStabilizer = AttributeStabilizer()) -> [Bool?] {
        values.enumerated().map { frame, value in
            var faces = [face(track: 1, left: value)]
            stabilizer.process(&faces, frame: frame)
            return faces[0].observation.leftEyeClosed
        }
    }

    func testFlagsFollowClearScores() {
        let s = AttributeStabilizer()
        var faces = [face(track: 1, left: 0.05, right: 0.35, smile: 1.3), face(track: 2, left: 0.3, right: 0.02, smile: 0.7)]
        s.process(&faces, frame: 0)
        XCTAssertEqual(faces[0].observation.leftEyeClosed, true)
        XCTAssertEqual(faces[0].observation.rightEyeClosed, false)
        XCTAssertEqual(faces[0].observation.hasSmile, true)
        XCTAssertEqual(faces[0].display.hasSmile, true, "the drawn copy gets the flags too")
        XCTAssertEqual(faces[1].observation.leftEyeClosed, false)
        XCTAssertEqual(faces[1].observation.rightEyeClosed, true)
        XCTAssertEqual(faces[1].observation.hasSmile, false)
    }

    func testHysteresisSuppressesFlicker() {
        let t = AttributeThresholds()
        let middle = (t.eyeClosedBelow + t.eyeOpenAbove) / 2
        // Open eye whose score wobbles around the middle for one frame at a time: stays open.
        let wobble = [0.3, middle - 0.01, middle + 0.01, middle - 0.01, 0.3]
        XCTAssertEqual(leftFlags(wobble), [false, false, false, false, false])
        // Without history (untracked) the same single frame would have flipped.
        var lone = [face(track: nil, left: middle - 0.01)]
        AttributeStabilizer().process(&lone, frame: 0)
        XCTAssertEqual(lone[0].observation.leftEyeClosed, true)
        // A closed eye reopening only partway stays closed until it passes the upper edge.
        XCTAssertEqual(leftFlags([0.05, middle + 0.01, t.eyeOpenAbove + 0.01]), [true, true, false])
    }

    func testShortBlinkIsNotMissed() {
        XCTAssertEqual(leftFlags([0.3, 0.3, 0.08, 0.3, 0.3]), [false, false, true, false, false])
    }

    /// A wide-eyed person (openness 0.4) half-closing to 0.18 (above the absolute closed edge) is
    /// caught once the track knows its typical value; the absolute band alone misses it.
    func testRelativeBandCatchesPartialBlinkOfWideEyes() {
        let history = Array(repeating: 0.4, count: 12)
        let series = history + [0.18, 0.18, 0.4, 0.4]
        let relative = leftFlags(series)
        XCTAssertEqual(Array(relative.suffix(4)), [true, true, false, false])
        XCTAssertTrue(relative.prefix(12).allSatisfy { $0 == false })
        let absolute = leftFlags(series, stabilizer: AttributeStabilizer(thresholds: AttributeThresholds(eyeHistoryFrames: 0)))
        XCTAssertEqual(Array(absolute.suffix(4)), [false, false, false, false])
    }

    /// A narrow-eyed person (0.16, near the absolute closed edge) wobbling down to 0.145 would be
    /// flagged by the absolute band; relative to their own 0.16 that is open.
    func testRelativeBandSparesNarrowEyes() {
        let series = Array(repeating: 0.16, count: 12) + [0.145, 0.16, 0.145, 0.07]
        XCTAssertEqual(Array(leftFlags(series).suffix(4)), [false, false, false, true])
        let absolute = leftFlags(series, stabilizer: AttributeStabilizer(thresholds: AttributeThresholds(eyeHistoryFrames: 0)))
        XCTAssertEqual(Array(absolute.suffix(4)), [true, true, true, true])
    }

    /// A long closure does not become the baseline (closed frames stay out of it), and a jump of
    /// the box (another person) restarts the baseline on the absolute band.
    func testBaselineIgnoresClosedFramesAndRestartsOnJumps() {
        let s = AttributeStabilizer()
        var flags: [Bool?] = []
        for (frame, value) in (Array(repeating: 0.4, count: 12) + Array(repeating: 0.12, count: 40)).enumerated() {
            var faces = [face(track: 1, left: value)]
            s.process(&faces, frame: frame)
            flags.append(faces[0].observation.leftEyeClosed)
        }
        XCTAssertTrue(flags.suffix(40).allSatisfy { $0 == true }, "still closed after 40 frames")
        // Same track, box moved far: 0.2 is open on the absolute band (above 0.19); on the old
        // baseline (0.4) it would read 0.5, closed.
        var moved = face(track: 1, left: 0.2)
        moved.observation.bounds = Rect(x: 300, y: 0, width: 50, height: 50)
        var faces = [moved]
        s.process(&faces, frame: 52)
        XCTAssertEqual(faces[0].observation.leftEyeClosed, false)
        XCTAssertTrue(AttributeStabilizer.jumped(from: Rect(x: 0, y: 0, width: 50, height: 50), to: Rect(x: 300, y: 0, width: 50, height: 50)))
        XCTAssertTrue(AttributeStabilizer.jumped(from: Rect(x: 0, y: 0, width: 50, height: 50), to: Rect(x: 5, y: 5, width: 40, height: 40)))
        XCTAssertFalse(AttributeStabilizer.jumped(from: Rect(x: 0, y: 0, width: 50, height: 50), to: Rect(x: 4, y: 3, width: 52, height: 52)))
    }

    func testPredictedRowsKeepLastFlagsAndMissingScoresGiveNone() {
        let s = AttributeStabilizer()
        var first = [face(track: 3, left: 0.05, smile: 1.3)]
        s.process(&first, frame: 0)
        var predicted = [face(track: 3, left: nil, right: nil, smile: nil, source: .predicted)]
        s.process(&predicted, frame: 1)
        XCTAssertEqual(predicted[0].observation.leftEyeClosed, true)
        XCTAssertEqual(predicted[0].observation.hasSmile, true)
        var unmeasured = [TrackedFace(observation: FaceObservation(bounds: Rect(x: 0, y: 0, width: 10, height: 10),
                                                                   confidence: 0.9), trackID: 3)]
        s.process(&unmeasured, frame: 2)
        XCTAssertNil(unmeasured[0].observation.leftEyeClosed)
        XCTAssertNil(unmeasured[0].observation.hasSmile)
        // Only smile measured: eye flags stay empty.
        var smileOnly = [face(track: 4, left: nil, right: nil, smile: 1.2)]
        s.process(&smileOnly, frame: 3)
        XCTAssertNil(smileOnly[0].observation.leftEyeClosed)
        XCTAssertEqual(smileOnly[0].observation.hasSmile, true)
    }

    func testSelectionParsing() throws {
        XCTAssertEqual(try AttributeSelection(parsing: "smile,blink"), [.smile, .blink])
        XCTAssertEqual(try AttributeSelection(parsing: "all"), .all)
        XCTAssertEqual(try AttributeSelection(parsing: "Angle"), .angle)
        XCTAssertThrowsError(try AttributeSelection(parsing: "smile,wink")) { error in
            XCTAssertTrue("\(error)".contains("'wink'"), "\(error)")
        }
        XCTAssertThrowsError(try AttributeSelection(parsing: ""))
    }
}
