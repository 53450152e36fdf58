import Attributes
import FaceCore
import XCTest

/// The attribute arithmetic on synthetic meshes: openness, smile, centres, roll and yaw signs.
final class FaceMeshMeasuresTests: XCTestCase {
    private let thresholds = AttributeThresholds()

    func testOpenAndClosedEyes() throws {
        let open = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(eyeOpening: 0.3)))
        XCTAssertEqual(open.leftEyeOpenness, 0.3, accuracy: 1e-9)
        XCTAssertGreaterThan(open.rightEyeOpenness, thresholds.eyeOpenAbove)
        let closed = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(eyeOpening: 0.05)))
        XCTAssertLessThan(closed.leftEyeOpenness, thresholds.eyeClosedBelow)
        XCTAssertLessThan(closed.rightEyeOpenness, thresholds.eyeClosedBelow)
        // A wink: only the image-right eye closed.
        let wink = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(eyeOpening: 0.3, rightEyeOpening: 0.04)))
        XCTAssertGreaterThan(wink.leftEyeOpenness, thresholds.eyeOpenAbove)
        XCTAssertLessThan(wink.rightEyeOpenness, thresholds.eyeClosedBelow)
    }

    func testSmileAndNeutral() throws {
        let neutral = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(mouthWidth: 48, cornerLift: 0)))
        XCTAssertEqual(neutral.mouthWidthRatio, 0.8, accuracy: 1e-9)
        XCTAssertLessThan(neutral.smileScore, thresholds.smileEndsBelow)
        let smile = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(mouthWidth: 62, cornerLift: 4)))
        XCTAssertGreaterThan(smile.cornerLift, 0)
        XCTAssertGreaterThan(smile.smileScore, thresholds.smileAbove)
        // Turned 40 degrees in the image, the same smile scores the same.
        let turned = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(mouthWidth: 62, cornerLift: 4, roll: 40)))
        XCTAssertEqual(turned.smileScore, smile.smileScore, accuracy: 1e-9)
    }

    func testCentresRollAndYawSigns() throws {
        let upright = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face()))
        XCTAssertEqual(upright.leftEyeCenter.x, 170, accuracy: 1e-9)
        XCTAssertEqual(upright.rightEyeCenter.x, 230, accuracy: 1e-9)
        XCTAssertEqual(upright.mouthCenter.y, 240, accuracy: 1e-9)
        XCTAssertEqual(upright.roll, 0, accuracy: 1e-9)
        XCTAssertEqual(upright.yaw, 0, accuracy: 1e-9)
        let rolled = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(roll: 25)))
        XCTAssertEqual(rolled.roll, 25, accuracy: 1e-9, "clockwise on screen is positive")
        // Nose towards the image's right: the subject turns to their left, positive yaw (asin 0.5 = 30 degrees).
        let turnedLeft = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(noseShift: 25)))
        XCTAssertEqual(turnedLeft.yaw, 30, accuracy: 1e-9)
        let turnedRight = try XCTUnwrap(FaceMeshMeasures(points: SyntheticMesh.face(noseShift: -25, roll: -15)))
        XCTAssertEqual(turnedRight.yaw, -30, accuracy: 1e-9)
    }

    func testDegenerateMeshesGiveNothing() {
        XCTAssertNil(FaceMeshMeasures(points: []))
        XCTAssertNil(FaceMeshMeasures(points: [Point](repeating: Point(x: 5, y: 5), count: FaceMeshIndex.count)))
        var nan = SyntheticMesh.face()
        nan[100] = Point(x: .nan, y: 0)
        XCTAssertNil(FaceMeshMeasures(points: nan))
    }
}
