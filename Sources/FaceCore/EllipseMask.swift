/// The region hidden by anonymisation: the face box scaled about its centre, and the ellipse
/// inscribed in it or the whole box (`shape`). A pixel belongs to the mask when its centre lies
/// inside the shape. The one definition of a mask: the renderer draws it and `facetrack eval`
/// measures coverage with it.
package struct EllipseMask: Sendable {
    package let centerX: Double
    package let centerY: Double
    package let radiusX: Double
    package let radiusY: Double
    /// Ellipse or box.
    package let shape: MaskShape
    /// Every pixel the ellipse can touch (not clipped to the frame).
    package let bounds: PixelRect

    /// The mask for a face box, or `nil` when the box or scale is not finite and positive.
    package init?(face: Rect, scale: Double, shape: MaskShape = .ellipse) {
        guard face.isValid, scale.isFinite, scale > 0 else { return nil }
        let c = face.center
        let rx = face.width * scale / 2, ry = face.height * scale / 2
        guard rx.isFinite, ry.isFinite else { return nil }
        self.init(centerX: c.x, centerY: c.y, radiusX: rx, radiusY: ry, shape: shape)
    }

    /// The mask with this centre and these radii (finite, positive).
    package init(centerX: Double, centerY: Double, radiusX: Double, radiusY: Double, shape: MaskShape = .ellipse) {
        self.centerX = centerX
        self.centerY = centerY
        self.radiusX = radiusX
        self.radiusY = radiusY
        self.shape = shape
        bounds = PixelRect(x0: PixelRect.index((centerX - radiusX).rounded(.down)),
                           y0: PixelRect.index((centerY - radiusY).rounded(.down)),
                           x1: PixelRect.index((centerX + radiusX).rounded(.up)),
                           y1: PixelRect.index((centerY + radiusY).rounded(.up)))
    }

    /// The columns `[lo, hi)` of row `y` inside the mask, limited to `limit`; `nil` when none.
    package func span(row y: Int, within limit: PixelRect) -> (lo: Int, hi: Int)? {
        let dy = (Double(y) + 0.5 - centerY) / radiusY
        guard dy * dy <= 1 else { return nil }
        let half = shape.halfWidth(radiusX: radiusX, dy: dy)
        let lo = max(limit.x0, PixelRect.index((centerX - half - 0.5).rounded(.up)))
        let hi = min(limit.x1, PixelRect.index((centerX + half - 0.5).rounded(.down)) + 1)
        return lo < hi ? (lo, hi) : nil
    }

    /// The pixels whose centres lie inside the mask box (the rectangle `shape` .box fills).
    package var boxPixels: PixelRect {
        PixelRect(x0: PixelRect.index((centerX - radiusX - 0.5).rounded(.up)),
                  y0: PixelRect.index((centerY - radiusY - 0.5).rounded(.up)),
                  x1: PixelRect.index((centerX + radiusX - 0.5).rounded(.down)) + 1,
                  y1: PixelRect.index((centerY + radiusY - 0.5).rounded(.down)) + 1)
    }
}
