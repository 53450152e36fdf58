/// Indices into the 468 points of MediaPipe's canonical face mesh (facts of the published mesh
/// topology). "Image-left" is the subject's right side for an upright face seen from the front.
package enum FaceMeshIndex {
    /// Points the mesh model outputs.
    package static let count = 468

    /// One eye's contour points used for openness and the centre.
    package struct Eye: Sendable {
        /// Outer corner (towards the ear).
        package let outer: Int
        /// Inner corner (towards the nose).
        package let inner: Int
        /// Upper-lid points, outer to inner.
        package let upper: [Int]
        /// Lower-lid points paired with `upper` (same order).
        package let lower: [Int]
    }

    /// The eye on the image's left (the subject's right eye).
    package static let imageLeftEye = Eye(outer: 33, inner: 133, upper: [160, 159, 158], lower: [144, 145, 153])
    /// The eye on the image's right (the subject's left eye).
    package static let imageRightEye = Eye(outer: 263, inner: 362, upper: [387, 386, 385], lower: [373, 374, 380])

    /// Mouth corner on the image's left (the subject's right).
    package static let mouthImageLeft = 61
    /// Mouth corner on the image's right (the subject's left).
    package static let mouthImageRight = 291
    /// Centre of the upper lip's inner edge.
    package static let upperLipInner = 13
    /// Centre of the lower lip's inner edge.
    package static let lowerLipInner = 14
    /// Centre of the upper lip's outer edge.
    package static let upperLipOuter = 0
    /// Centre of the lower lip's outer edge.
    package static let lowerLipOuter = 17
    /// Nose tip.
    package static let noseTip = 1
    /// Face outline at the cheek on the image's left.
    package static let outlineImageLeft = 234
    /// Face outline at the cheek on the image's right.
    package static let outlineImageRight = 454
    /// Top of the forehead on the outline.
    package static let forehead = 10
    /// Chin on the outline.
    package static let chin = 152
}
