import Attributes
import FaceCore
import Foundation

/// Synthetic 468-point face meshes with controllable eyes, mouth, turn and rotation.
enum SyntheticMesh {
    /// A frontal face 100 px wide centred at (200, 200): every unused point at the centre, eyes
    /// 60 px apart, mouth 50 px wide. `eyeOpening` is the lid gap over the eye width;
    /// `cornerLift` raises the mouth corners (pixels, up); `mouthWidth` sets the corner distance;
    /// `noseShift` moves the nose tip towards the image's right; `roll` turns everything (degrees, clockwise).
    static func face(eyeOpening: Double = 0.3, rightEyeOpening: Double? = nil, mouthWidth: Double = 50,
                     cornerLift: Double = 0, noseShift: Double = 0, roll: Double = 0) -> [Point] {
        var p = [Point](repeating: Point(x: 200, y: 200), count: FaceMeshIndex.count)
        func eye(_ e: FaceMeshIndex.Eye, centerX: Double, opening: Double) {
            let half = 12.5, outerX = centerX < 200 ? centerX - half : centerX + half
            let innerX = centerX < 200 ? centerX + half : centerX - half
            p[e.outer] = Point(x: outerX, y: 180)
            p[e.inner] = Point(x: innerX, y: 180)
            for (k, (u, l)) in zip(e.upper, e.lower).enumerated() {
                let x = outerX + (innerX - outerX) * Double(k + 1) / 4
                p[u] = Point(x: x, y: 180 - opening * 25 / 2)
                p[l] = Point(x: x, y: 180 + opening * 25 / 2)
            }
        }
        eye(FaceMeshIndex.imageLeftEye, centerX: 170, opening: eyeOpening)
        eye(FaceMeshIndex.imageRightEye, centerX: 230, opening: rightEyeOpening ?? eyeOpening)
        p[FaceMeshIndex.mouthImageLeft] = Point(x: 200 - mouthWidth / 2, y: 240 - cornerLift)
        p[FaceMeshIndex.mouthImageRight] = Point(x: 200 + mouthWidth / 2, y: 240 - cornerLift)
        p[FaceMeshIndex.upperLipInner] = Point(x: 200, y: 238)
        p[FaceMeshIndex.lowerLipInner] = Point(x: 200, y: 242)
        p[FaceMeshIndex.noseTip] = Point(x: 200 + noseShift, y: 210)
        p[FaceMeshIndex.outlineImageLeft] = Point(x: 150, y: 200)
        p[FaceMeshIndex.outlineImageRight] = Point(x: 250, y: 200)
        let a = roll * .pi / 180, c = cos(a), s = sin(a)
        return p.map { q in
            let dx = q.x - 200, dy = q.y - 200
            return Point(x: 200 + dx * c - dy * s, y: 200 + dx * s + dy * c)
        }
    }
}
