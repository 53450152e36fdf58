/// How a stored image must be turned to be upright, with EXIF's numbering (1 to 8).
///
/// Videos carry a display matrix and photos an EXIF tag; both map to one of these eight cases.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Upside down (rotate 180°).
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Transposed: x and y swapped.
    case leftMirrored = 5
    /// Rotate 90° clockwise to display (a phone held upright: display matrix -90°, `rotate=90` tag).
    case right = 6
    /// Transversed: mirrored across the other diagonal.
    case rightMirrored = 7
    /// Rotate 90° counter-clockwise to display.
    case left = 8

    /// Whether upright width and height are the stored height and width.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The orientation for a clockwise display rotation in degrees (any multiple of 90) and an
    /// optional horizontal flip applied after it.
    public init(clockwiseDegrees: Int, mirrored: Bool = false) {
        let quarter = ((clockwiseDegrees % 360) + 360) % 360 / 90
        switch (quarter, mirrored) {
        case (0, false): self = .up
        case (1, false): self = .right
        case (2, false): self = .down
        case (3, false): self = .left
        case (0, true): self = .upMirrored
        case (1, true): self = .rightMirrored
        case (2, true): self = .downMirrored
        default: self = .leftMirrored
        }
    }

    /// Size of the upright image for a stored image of `width` x `height`.
    public func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// The stored pixel that shows at upright position (ux, uy), for a stored image of `width` x `height`.
    @inline(__always)
    public func storedPosition(ux: Int, uy: Int, width w: Int, height h: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (ux, uy)
        case .upMirrored: return (w - 1 - ux, uy)
        case .down: return (w - 1 - ux, h - 1 - uy)
        case .downMirrored: return (ux, h - 1 - uy)
        case .leftMirrored: return (uy, ux)
        case .right: return (uy, h - 1 - ux)
        case .rightMirrored: return (w - 1 - uy, h - 1 - ux)
        case .left: return (w - 1 - uy, ux)
        }
    }
}

extension BGRAImage {
    /// Copies `stored` into `upright` (sized `orientation.uprightSize`) so that it is displayed upright.
    public static func makeUpright(_ stored: BGRAImage, orientation: ImageOrientation, into upright: BGRAImage) {
        transfer(stored: stored, upright: upright, orientation: orientation, toUpright: true)
        upright.contentsDidChange()
    }

    /// The inverse of `makeUpright`: writes `upright` back into `stored` in the stored orientation.
    public static func restoreStored(_ upright: BGRAImage, orientation: ImageOrientation, into stored: BGRAImage) {
        transfer(stored: stored, upright: upright, orientation: orientation, toUpright: false)
        stored.contentsDidChange()
    }

    private static func transfer(stored: BGRAImage, upright: BGRAImage, orientation: ImageOrientation, toUpright: Bool) {
        let size = orientation.uprightSize(width: stored.width, height: stored.height)
        precondition(upright.width == size.width && upright.height == size.height, "upright image has the wrong size")
        for uy in 0..<upright.height {
            let uRow = UnsafeMutableRawPointer(upright.row(uy)).assumingMemoryBound(to: UInt32.self)
            for ux in 0..<upright.width {
                let s = orientation.storedPosition(ux: ux, uy: uy, width: stored.width, height: stored.height)
                let sPixel = UnsafeMutableRawPointer(stored.row(s.y) + s.x * 4).assumingMemoryBound(to: UInt32.self)
                if toUpright { uRow[ux] = sPixel.pointee } else { sPixel.pointee = uRow[ux] }
            }
        }
    }
}
