/// A rectangle of whole pixels, `[x0, x1) x [y0, y1)`: a cascade's scan window, a rounded face
/// box to draw.
package struct PixelRect: Sendable, Hashable {
    package var x0: Int
    package var y0: Int
    package var x1: Int
    package var y1: Int

    /// Coordinates beyond this are clamped before conversion, so `Int(_:)` never traps and sums of
    /// coordinates never overflow; anything this far out is off-frame anyway.
    package static let limit = 1 << 30

    package init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    /// The rectangle with its top-left corner at (`x`, `y`).
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.init(x0: x, y0: y, x1: x + width, y1: y + height)
    }

    /// The pixels covered by `[minX, maxX) x [minY, maxY)` after rounding each edge to the nearest
    /// pixel boundary.
    package init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.init(x0: PixelRect.index(minX), y0: PixelRect.index(minY),
                  x1: PixelRect.index(maxX), y1: PixelRect.index(maxY))
    }

    /// A `width` x `height` rectangle centred on (`cx`, `cy`), with the size rounded first so every
    /// marker of one size has the same pixel size wherever it lands.
    package init(centerX cx: Double, centerY cy: Double, width: Int, height: Int) {
        let x0 = PixelRect.index(cx - Double(width) / 2), y0 = PixelRect.index(cy - Double(height) / 2)
        self.init(x0: x0, y0: y0, x1: x0 + width, y1: y0 + height)
    }

    /// Rounds a coordinate to a pixel boundary, clamped to `±limit` (NaN goes to `-limit`).
    package static func index(_ value: Double) -> Int {
        guard value.isFinite else { return value > 0 ? limit : -limit }
        return Int(Swift.min(Swift.max(value.rounded(), -Double(limit)), Double(limit)))
    }

    /// Left edge.
    package var x: Int { x0 }
    /// Top edge.
    package var y: Int { y0 }
    package var width: Int { x1 - x0 }
    package var height: Int { y1 - y0 }
    package var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    /// The part inside a `width` x `height` frame (possibly empty).
    package func clipped(width: Int, height: Int) -> PixelRect {
        PixelRect(x0: Swift.max(x0, 0), y0: Swift.max(y0, 0), x1: Swift.min(x1, width), y1: Swift.min(y1, height))
    }

    /// The inside left by an outline `thickness` pixels wide (at least 1) drawn on the rectangle's
    /// inside, or `nil` when the outline would cover it all.
    package func strokeHole(thickness: Int) -> PixelRect? {
        let t = Swift.max(1, thickness)
        guard width > 2 * t, height > 2 * t else { return nil }
        return PixelRect(x0: x0 + t, y0: y0 + t, x1: x1 - t, y1: y1 - t)
    }
}
