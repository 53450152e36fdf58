import FaceCore
@testable import Tracking
import XCTest

/// `holdsMasks` (anonymisation): a tentative face keeps a row on frames it is not found, so its
/// mask never blinks off; without it a tentative track ends at its first miss.
final class MaskHoldingTests: XCTestCase {
    private func rows(holdsMasks: Bool, _ detections: [[FaceObservation]?]) -> [[TrackedFace]] {
        var configuration = TrackerConfiguration(minHits: 3, maxAge: 5)
        configuration.holdsMasks = holdsMasks
        let tracker = Tracker(configuration: configuration)
        return detections.enumerated().map { tracker.update(frame: $0.offset, time: Double($0.offset) / 25, detections: $0.element) }
    }

    /// Found, missed once by the detector, found again: the middle frame keeps a (predicted) row
    /// on the face, and the two detections stay one track.
    func testTentativeFaceMissedOnceKeepsItsMask() {
        let held = rows(holdsMasks: true, [[face(100, 100)], [], [face(102, 100)]])
        XCTAssertEqual(held[1].count, 1)
        XCTAssertEqual(held[1].first?.source, .predicted)
        XCTAssertGreaterThan(held[1].first?.observation.bounds.iou(face(101, 100).bounds) ?? 0, 0.8)
        XCTAssertEqual(held[2].first?.trackSerial, held[0].first?.trackSerial)
        // Reporting only: the tentative track ends at its miss and the frame has no row.
        XCTAssertEqual(rows(holdsMasks: false, [[face(100, 100)], [], [face(102, 100)]])[1].count, 0)
    }

    /// Frames the detector skips (`nil`) report a tentative face too.
    func testTentativeFaceOnSkippedFramesKeepsItsMask() {
        let held = rows(holdsMasks: true, [[face(100, 100)], nil, nil, [face(103, 100)]])
        XCTAssertEqual(held.map(\.count), [1, 1, 1, 1])
        XCTAssertNil(held[1].first?.trackID)
        XCTAssertEqual(rows(holdsMasks: false, [[face(100, 100)], nil, nil, [face(103, 100)]]).map(\.count), [1, 0, 0, 1])
    }

    /// A lost confirmed track keeps its mask along its forecast for maxAge frames, then it ends.
    func testLostTrackIsHeldForMaxAgeFrames() {
        let seen: [[FaceObservation]?] = (0..<4).map { [face(100 + Double($0) * 2, 100)] }
        let held = rows(holdsMasks: true, seen + Array(repeating: [], count: 8))
        XCTAssertEqual(held[4..<12].map(\.count), [1, 1, 1, 1, 1, 0, 0, 0])
        XCTAssertEqual(held[8].first?.source, .predicted)
        XCTAssertGreaterThan(held[8].first?.observation.bounds.center.x ?? 0, 106, "the mask follows the forecast")
        XCTAssertEqual(held[4..<9].map { $0.first?.unseenFrames }, [1, 2, 3, 4, 5], "its mask grows with the time unseen")
        XCTAssertEqual(held[3].first?.unseenFrames, 0)
        // Reporting only: predictions stop after reportMissedFrames (2) misses.
        XCTAssertEqual(rows(holdsMasks: false, seen + Array(repeating: [], count: 8))[4..<12].map(\.count), [1, 1, 0, 0, 0, 0, 0, 0])
    }

    /// `maskThreshold`: a detection below the reporting threshold that continues no track is
    /// reported in no track (for its mask) when at least that confident; below it, or without
    /// held masks, it is dropped as before.
    func testDetectionsBelowTheReportingThresholdAreMaskedDownToTheMaskThreshold() {
        func untracked(holdsMasks: Bool, maskThreshold: Double?, _ confidences: [Double]) -> [Double] {
            var configuration = TrackerConfiguration(minHits: 3, maxAge: 5, highThreshold: 0.5, lowThreshold: 0.25)
            configuration.holdsMasks = holdsMasks
            configuration.maskThreshold = maskThreshold
            let tracker = Tracker(configuration: configuration)
            let faces = confidences.enumerated().map { FaceObservation(bounds: Rect(x: Double($0.offset) * 100, y: 0, width: 40, height: 40),
                                                                       confidence: $0.element) }
            let rows = tracker.update(frame: 0, time: 0, detections: faces)
            return rows.filter { $0.trackSerial == 0 }.map(\.observation.confidence)
        }
        XCTAssertEqual(untracked(holdsMasks: true, maskThreshold: 0.1, [0.3, 0.15, 0.05, 0.9]), [0.15, 0.3])
        XCTAssertEqual(untracked(holdsMasks: true, maskThreshold: 0.2, [0.3, 0.15]), [0.3])
        XCTAssertEqual(untracked(holdsMasks: true, maskThreshold: nil, [0.3, 0.15]), [])
        XCTAssertEqual(untracked(holdsMasks: false, maskThreshold: 0.1, [0.3, 0.15]), [])
    }
}
