import FaceCore
import Scheduling
import XCTest

/// When a frame gets a close-up pass, and how its padded picture maps back to the frame.
final class CloseUpRuleTests: XCTestCase {
    private let rule = CloseUpRule(confidentScore: 0.5)
    private let geometry = DetectionGeometry(baseLongSide: 640, cropSide: 96, tileWidth: 640, tileHeight: 416,
                                             reliableFaceSize: 24, baseMultiple: 32)

    private func face(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ confidence: Double) -> FaceObservation {
        FaceObservation(bounds: Rect(x: x, y: y, width: w, height: h), confidence: confidence)
    }

    /// The evidence measured on a close-up (a talking head filling a 640x360 frame scored 0.30 with
    /// a 337x360 box): weak, large, at the border. Each condition alone is not enough.
    func testAWeakLargeFaceAtTheBorderCallsForACloseUp() {
        XCTAssertTrue(rule.wantsCloseUp([face(153, 0, 338, 360, 0.30)], width: 640, height: 360))
        XCTAssertTrue(rule.wantsCloseUp([face(167, 0, 365, 360, 0.065)], width: 640, height: 360), "down to the floor")
        XCTAssertFalse(rule.wantsCloseUp([face(167, 0, 365, 360, 0.04)], width: 640, height: 360), "below the floor")
        XCTAssertFalse(rule.wantsCloseUp([face(153, 0, 338, 360, 0.88)], width: 640, height: 360), "confident: found already")
        XCTAssertFalse(rule.wantsCloseUp([face(200, 100, 150, 180, 0.30)], width: 640, height: 360), "not large")
        XCTAssertFalse(rule.wantsCloseUp([face(150, 20, 300, 320, 0.30)], width: 640, height: 360), "large, off the border")
        XCTAssertFalse(rule.wantsCloseUp([], width: 640, height: 360))
    }

    /// A confident face on the candidate (the face itself, or a face on a body the candidate
    /// boxes) or a tracked face there: no close-up.
    func testAFaceFoundOrTrackedThereNeedsNoCloseUp() {
        let weak = face(150, 0, 300, 360, 0.06)
        XCTAssertFalse(rule.wantsCloseUp([weak, face(250, 40, 90, 110, 0.9)], width: 640, height: 360))
        XCTAssertTrue(rule.wantsCloseUp([weak, face(520, 40, 90, 110, 0.9)], width: 640, height: 360), "a face elsewhere")
        XCTAssertFalse(rule.wantsCloseUp([weak], width: 640, height: 360, tracked: [Rect(x: 160, y: 0, width: 290, height: 350)]))
        XCTAssertTrue(rule.wantsCloseUp([weak], width: 640, height: 360, tracked: [Rect(x: 500, y: 40, width: 90, height: 110)]))
    }

    /// The pass: the frame centred in a canvas twice its size, at the whole-frame pass's picture
    /// size; the frame fills the middle half of the picture, the rest black.
    func testThePassShowsTheFrameAtHalfScaleInTheMiddle() throws {
        let pass = rule.pass(width: 640, height: 360, geometry: geometry)
        XCTAssertEqual(pass.kind, .closeUp)
        XCTAssertEqual(pass.region, Rect(x: -320, y: -180, width: 1280, height: 720))
        XCTAssertEqual([pass.pictureWidth, pass.pictureHeight], [640, 384])
        XCTAssertEqual(pass.source, .detected)
        let inside = try XCTUnwrap(pass.insideFrame(width: 640, height: 360))
        XCTAssertEqual(inside.region, Rect(x: 0, y: 0, width: 640, height: 360))
        XCTAssertEqual(inside.picture, PixelRect(x0: 160, y0: 96, x1: 480, y1: 288))
        // Mapped back through the part's own scale, the picture shows the canvas.
        let shown = pass.paddedRegion(sampled: inside.region, picture: inside.picture)
        XCTAssertEqual(shown.x, -320, accuracy: 1e-9)
        XCTAssertEqual(shown.y, -180, accuracy: 1e-9)
        XCTAssertEqual(shown.width, 1280, accuracy: 1e-9)
        XCTAssertEqual(shown.height, 720, accuracy: 1e-9)
        // A pass inside the frame needs no padding.
        XCTAssertNil(ScheduledPass(kind: .full, region: Rect(x: 0, y: 0, width: 640, height: 360), pictureWidth: 640,
                                   pictureHeight: 384).insideFrame(width: 640, height: 360))
    }

    /// A face boxed beyond the frame by the padded picture is clamped to the frame, as the
    /// whole-frame pass's boxes are; one wholly in the black border is dropped.
    func testCloseUpBoxesAreClampedToTheFrame() {
        let pass = rule.pass(width: 640, height: 360, geometry: geometry)
        var merger = DetectionMerger(width: 640, height: 360)
        // In picture pixels (scale 0.5 x, 384/720 y): a face from above the frame to below it, and one in the border.
        merger.add([face(230, 80, 190, 230, 0.88), face(10, 10, 40, 40, 0.3)], from: pass)
        let merged = merger.merged()
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].bounds.y, 0, accuracy: 1e-9)
        XCTAssertEqual(merged[0].bounds.maxY, 360, accuracy: 1e-9)
        XCTAssertEqual(merged[0].bounds.x, 140, accuracy: 1e-9)
        XCTAssertEqual(merged[0].source, .detected)
    }
}
