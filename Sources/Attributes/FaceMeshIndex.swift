/// Indices into the 468 points of MediaPipe's canonical face mesh (facts of the published mesh
/// topology). "Image-left" is the subject's right side for an upright face seen from the front.
public enum FaceMeshIndex {
    /// Points the mesh model outputs.
    public static let count = 468

    /// One eye's contour points used for openness and the centre.
    public struct Eye: Sendable {
        /// Outer corner (towards the ear).
        public let outer: Int
        /// Inner corner (towards the nose).
        public let inner: Int
        /// Upper-lid points, outer to inner.
        public let upper: [Int]
        /// Lower-lid points paired with `upper` (same order).
        public let lower: [Int]
    }

    /// The eye on the image's left (the subject's right eye).
    public static let imageLeftEye = Eye(outer: 33, inner: 133, upper: [160, 159, 158], lower: [144, 145, 153])
    /// The eye on the image's right (the subject's left eye).
    public static let imageRightEye = Eye(outer: 263, inner: 362, upper: [387, 386, 385], lower: [373, 374, 380])

    /// Mouth corner on the image's left (the subject's right).
    public static let mouthImageLeft = 61
    /// Mouth corner on the image's right (the subject's left).
    public static let mouthImageRight = 291
    /// Centre of the upper lip's inner edge.
    public static let upperLipInner = 13
    /// Centre of the lower lip's inner edge.
    public static let lowerLipInner = 14
    /// Centre of the upper lip's outer edge.
    public static let upperLipOuter = 0
    /// Centre of the lower lip's outer edge.
    public static let lowerLipOuter = 17
    /// Nose tip.
    public static let noseTip = 1
    /// Face outline at the cheek on the image's left.
    public static let outlineImageLeft = 234
    /// Face outline at the cheek on the image's right.
    public static let outlineImageRight = 454
    /// Top of the forehead on the outline.
    public static let forehead = 10
    /// Chin on the outline.
    public static let chin = 152
}
