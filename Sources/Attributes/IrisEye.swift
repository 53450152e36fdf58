import FaceCore

/// One eye as the iris model saw it, in frame pixels: the 71 contour points (`IrisIndex`) and the
/// 5 iris points, with the openness and centre derived from them. Pure arithmetic on the points,
/// so it is tested on synthetic contours.
package struct IrisEye: Sendable, Equatable {
    /// Eye contour and brow points, frame pixels, `IrisIndex` order.
    package let contour: [Point]
    /// Iris centre and edge points, frame pixels.
    package let iris: [Point]

    /// An eye from its points; `nil` unless there are 71 contour and 5 iris points, all finite.
    package init?(contour: [Point], iris: [Point]) {
        guard contour.count == IrisIndex.contourCount, iris.count == IrisIndex.irisCount,
              contour.allSatisfy(\.isFinite), iris.allSatisfy(\.isFinite) else { return nil }
        self.contour = contour
        self.iris = iris
    }

    /// Eye openness: mean gap between the five facing upper- and lower-lid points over the corner
    /// distance (an eye aspect ratio on the iris model's denser lids). About 0.15-0.4 open, below
    /// 0.12 closed; `nil` when the corners coincide.
    package var openness: Double? {
        let width = contour[IrisIndex.outerCorner].distance(to: contour[IrisIndex.innerCorner])
        guard width > 1e-6 else { return nil }
        var gaps = 0.0
        for (upper, lower) in zip(IrisIndex.upperLid, IrisIndex.lowerLid) {
            gaps += contour[upper].distance(to: contour[lower])
        }
        return gaps / Double(IrisIndex.upperLid.count) / width
    }

    /// The iris centre (the eye centre reported for the face).
    package var center: Point { iris[IrisIndex.irisCenter] }
}
