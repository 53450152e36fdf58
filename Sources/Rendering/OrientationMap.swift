import FaceCore

/// Maps upright-frame geometry onto a picture stored in another orientation, so overlays are
/// drawn where they show without turning the picture. Quarter turns and mirrors map whole pixels
/// to whole pixels, rectangles to rectangles and axis-aligned ellipses to axis-aligned ellipses.
struct OrientationMap {
    /// Stored picture size.
    let storedWidth: Int
    let storedHeight: Int
    /// Whether stored x runs along upright y (and stored y along upright x).
    let swapsAxes: Bool
    /// Whether stored x runs against the upright axis it follows.
    let flipsX: Bool
    /// Whether stored y runs against the upright axis it follows.
    let flipsY: Bool

    init(_ orientation: ImageOrientation, storedWidth: Int, storedHeight: Int) {
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        // Read the axes off FaceCore's pixel mapping: where one step right and one step down go.
        let o = orientation.storedPosition(ux: 0, uy: 0, width: 2, height: 2)
        let right = orientation.storedPosition(ux: 1, uy: 0, width: 2, height: 2)
        let down = orientation.storedPosition(ux: 0, uy: 1, width: 2, height: 2)
        swapsAxes = orientation.swapsAxes
        flipsX = swapsAxes ? down.x < o.x : right.x < o.x
        flipsY = swapsAxes ? right.y < o.y : down.y < o.y
    }

    /// Upright width in pixels.
    var uprightWidth: Int { swapsAxes ? storedHeight : storedWidth }
    /// Upright height in pixels.
    var uprightHeight: Int { swapsAxes ? storedWidth : storedHeight }

    /// The stored pixels of an upright rectangle (not clipped; empty stays empty).
    func stored(_ rect: PixelRect) -> PixelRect {
        let (xs, ys) = swapsAxes ? ((rect.y0, rect.y1), (rect.x0, rect.x1)) : ((rect.x0, rect.x1), (rect.y0, rect.y1))
        let (x0, x1) = flipsX ? (storedWidth - xs.1, storedWidth - xs.0) : xs
        let (y0, y1) = flipsY ? (storedHeight - ys.1, storedHeight - ys.0) : ys
        return PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// The stored ellipse of an upright one: it holds the stored pixels of the same pixel centres
    /// (a centre exactly on the ellipse may round either way once the axes are swapped).
    func stored(_ mask: EllipseMask) -> EllipseMask {
        var (cx, cy) = swapsAxes ? (mask.centerY, mask.centerX) : (mask.centerX, mask.centerY)
        if flipsX { cx = Double(storedWidth) - cx }
        if flipsY { cy = Double(storedHeight) - cy }
        return EllipseMask(centerX: cx, centerY: cy, radiusX: swapsAxes ? mask.radiusY : mask.radiusX,
                           radiusY: swapsAxes ? mask.radiusX : mask.radiusY, shape: mask.shape)
    }

    /// How to walk a `width` x `height` upright image (a sprite) along the stored axes.
    func layout(width: Int, height: Int) -> StoredLayout {
        let (countX, countY) = swapsAxes ? (height, width) : (width, height)
        // One step along stored x moves one pixel (or one row, when the axes swap) in the image.
        let unitX = swapsAxes ? width : 1, unitY = swapsAxes ? 1 : width
        return StoredLayout(origin: (flipsX ? (countX - 1) * unitX : 0) + (flipsY ? (countY - 1) * unitY : 0),
                            stepX: flipsX ? -unitX : unitX, stepY: flipsY ? -unitY : unitY,
                            countX: countX, countY: countY)
    }
}

/// An upright image seen in stored orientation: the pixel at stored-axis position (i, j) is
/// `origin + i * stepX + j * stepY` in the image's row-major order, for i < `countX`, j < `countY`.
struct StoredLayout {
    let origin: Int
    let stepX: Int
    let stepY: Int
    let countX: Int
    let countY: Int
}
