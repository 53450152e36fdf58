/// Point numbers of MediaPipe's iris model (iris_landmark.tflite) outputs, for an eye seen as the
/// model sees it (the image-left eye; the image-right one is mirrored before and after).
///
/// The first 16 of the 71 contour points are the eye's outline, in the order of the face mesh's
/// image-left eye points 33, 7, 163, 144, 145, 153, 154, 155, 133 (outer corner, lower lid, inner
/// corner) and 246, 161, 160, 159, 158, 157, 173 (upper lid, outer to inner); the rest are a wider
/// contour and the brow. The 5 iris points are the iris centre and four points on its edge.
package enum IrisIndex {
    /// Number of eye-contour and brow points (output `[1, 213]` = 71 x, y, z).
    package static let contourCount = 71
    /// Number of iris points (output `[1, 15]` = 5 x, y, z).
    package static let irisCount = 5
    /// Outer eye corner (mesh 33 / 263).
    package static let outerCorner = 0
    /// Inner eye corner (mesh 133 / 362).
    package static let innerCorner = 8
    /// Upper-lid points measured, outer to inner (mesh 161, 160, 159, 158, 157).
    package static let upperLid = [10, 11, 12, 13, 14]
    /// Lower-lid points facing `upperLid` (mesh 163, 144, 145, 153, 154).
    package static let lowerLid = [2, 3, 4, 5, 6]
    /// Iris centre, in the iris output.
    package static let irisCenter = 0
}
