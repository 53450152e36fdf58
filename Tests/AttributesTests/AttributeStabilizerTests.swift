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
