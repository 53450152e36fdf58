/// The outline of an anonymisation mask inside its box (`--mask-shape`). With `EllipseMask.span`
/// it is the one rule for which pixels a mask holds: the renderer draws by it and `facetrack eval`
/// counts coverage by it. A pixel is inside when its centre is.
public enum MaskShape: String, CaseIterable, Sendable {
    /// The ellipse inscribed in the mask box (the default).
    case ellipse
    /// The whole mask box: the scaled face box, corners included.
    case box

    /// Half the width of the shape at `dy` (vertical offset from the centre over the vertical
    /// radius, within -1...1), for horizontal radius `radiusX`.
    @inline(__always)
    func halfWidth(radiusX: Double, dy: Double) -> Double {
        switch self {
        case .ellipse: return radiusX * (1 - dy * dy).squareRoot()
        case .box: return radiusX
        }
    }
}
