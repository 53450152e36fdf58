import FaceCore
import Foundation

/// Geometric measures of one face from its 468 face-mesh points (frame pixels): eye openness,
/// smile, refined eye and mouth centres, roll and yaw. Pure arithmetic, so it is tested on
/// synthetic point sets.
///
/// Signs: `roll` is the angle of the line from the image-left eye centre to the image-right eye
/// centre, positive when it turns clockwise on screen (y down), as `FaceObservation.roll`.
/// `yaw` is positive when the subject turns to their left (their nose moves towards the image's
/// right): asin of the nose tip's offset from the middle of the face outline (cheek points 234
/// and 454) over the outline's half width, measured along the eye line. It is an estimate that
/// grows monotonically with the turn, close to the true angle up to about 45 degrees.
package struct FaceMeshMeasures: Sendable, Equatable {
    /// Eye aspect ratio of the image-left eye: mean of the three lid openings over the corner distance.
    package let leftEyeOpenness: Double
    /// Eye aspect ratio of the image-right eye.
    package let rightEyeOpenness: Double
    /// Centre of the image-left eye (mean of its corners and lid points).
    package let leftEyeCenter: Point
    /// Centre of the image-right eye.
    package let rightEyeCenter: Point
    /// Centre of the mouth: mean of the two corners and the inner lip centres.
    package let mouthCenter: Point
    /// Mouth width (corner to corner) over the distance between the eye centres.
    package let mouthWidthRatio: Double
    /// How far the mouth corners sit above the lip centre, along the face's up axis, over the
    /// mouth width (positive when the corners are raised).
    package let cornerLift: Double
    /// In-plane rotation in degrees (see the type's documentation for the sign).
    package let roll: Double
    /// Head turn in degrees (see the type's documentation for the sign).
    package let yaw: Double

    /// Weight of `cornerLift` in `smileScore`.
    package static let cornerLiftWeight = 2.0

    /// Smile score: `mouthWidthRatio + cornerLiftWeight * cornerLift`; a wide mouth with raised
    /// corners scores high (neutral faces score about 0.8, smiles above 1).
    package var smileScore: Double { mouthWidthRatio + Self.cornerLiftWeight * cornerLift }

    /// Measures a face; `nil` when there are not 468 finite points or the geometry is degenerate
    /// (eyes or mouth collapsed to a point).
    package init?(points: [Point]) {
        guard points.count >= FaceMeshIndex.count, points.allSatisfy(\.isFinite) else { return nil }
        func mean(_ indices: [Int]) -> Point {
            var x = 0.0, y = 0.0
            for i in indices { x += points[i].x; y += points[i].y }
            return Point(x: x / Double(indices.count), y: y / Double(indices.count))
        }
        func openness(_ eye: FaceMeshIndex.Eye) -> Double? {
            let width = points[eye.outer].distance(to: points[eye.inner])
            guard width > 1e-6 else { return nil }
            var lids = 0.0
            for (upper, lower) in zip(eye.upper, eye.lower) { lids += points[upper].distance(to: points[lower]) }
            return lids / Double(eye.upper.count) / width
        }
        func center(_ eye: FaceMeshIndex.Eye) -> Point { mean([eye.outer, eye.inner] + eye.upper + eye.lower) }

        guard let leftOpen = openness(FaceMeshIndex.imageLeftEye),
              let rightOpen = openness(FaceMeshIndex.imageRightEye) else { return nil }
        leftEyeOpenness = leftOpen
        rightEyeOpenness = rightOpen
        leftEyeCenter = center(FaceMeshIndex.imageLeftEye)
        rightEyeCenter = center(FaceMeshIndex.imageRightEye)
        let eyeDistance = leftEyeCenter.distance(to: rightEyeCenter)
        guard eyeDistance > 1e-6 else { return nil }
        // Unit axes of the face: x along the eye line (image-left to image-right eye), y down the face.
        let ax = (rightEyeCenter.x - leftEyeCenter.x) / eyeDistance, ay = (rightEyeCenter.y - leftEyeCenter.y) / eyeDistance
        func along(_ p: Point) -> Double { p.x * ax + p.y * ay }
        func down(_ p: Point) -> Double { -p.x * ay + p.y * ax }
        roll = atan2(ay, ax) * 180 / .pi

        let cornerLeft = points[FaceMeshIndex.mouthImageLeft], cornerRight = points[FaceMeshIndex.mouthImageRight]
        let lipCenter = mean([FaceMeshIndex.upperLipInner, FaceMeshIndex.lowerLipInner])
        mouthCenter = mean([FaceMeshIndex.mouthImageLeft, FaceMeshIndex.mouthImageRight,
                            FaceMeshIndex.upperLipInner, FaceMeshIndex.lowerLipInner])
        let mouthWidth = cornerLeft.distance(to: cornerRight)
        guard mouthWidth > 1e-6 else { return nil }
        mouthWidthRatio = mouthWidth / eyeDistance
        cornerLift = (down(lipCenter) - (down(cornerLeft) + down(cornerRight)) / 2) / mouthWidth

        let outlineLeft = along(points[FaceMeshIndex.outlineImageLeft])
        let outlineRight = along(points[FaceMeshIndex.outlineImageRight])
        let halfWidth = (outlineRight - outlineLeft) / 2
        guard halfWidth > 1e-6 else { return nil }
        let offset = (along(points[FaceMeshIndex.noseTip]) - (outlineLeft + outlineRight) / 2) / halfWidth
        yaw = asin(min(1, max(-1, offset))) * 180 / .pi
    }
}
