import FaceCore

/// Clipped drawing primitives on a BGRA frame. Every write is clipped to the frame, so callers may
/// pass rectangles partly or wholly outside it.
struct Canvas {
    let image: BGRAImage
    let width: Int
    let height: Int

    init(_ image: BGRAImage) {
        self.image = image
        width = image.width
        height = image.height
    }

    /// The whole frame as a pixel rectangle.
    var bounds: PixelRect { PixelRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// Fills a rectangle with an opaque colour.
    func fill(_ rect: PixelRect, color: RenderColor) {
        let clip = rect.clipped(width: width, height: height)
        guard !clip.isEmpty else { return }
        let value = Canvas.packed(color)
        for y in clip.y0..<clip.y1 {
            let p = UnsafeMutableRawPointer(image.row(y)).assumingMemoryBound(to: UInt32.self)
            for x in clip.x0..<clip.x1 { p[x] = value }
        }
    }

    /// Draws the outline of `rect` with `thickness` pixels on its inside, so the outer edge of the
    /// outline is the rectangle's edge.
    func stroke(_ rect: PixelRect, thickness: Int, color: RenderColor) {
        guard !rect.isEmpty else { return }
        let t = max(1, thickness)
        if rect.width <= 2 * t || rect.height <= 2 * t {
            fill(rect, color: color)
            return
        }
        fill(PixelRect(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y0 + t), color: color)
        fill(PixelRect(x0: rect.x0, y0: rect.y1 - t, x1: rect.x1, y1: rect.y1), color: color)
        fill(PixelRect(x0: rect.x0, y0: rect.y0 + t, x1: rect.x0 + t, y1: rect.y1 - t), color: color)
        fill(PixelRect(x0: rect.x1 - t, y0: rect.y0 + t, x1: rect.x1, y1: rect.y1 - t), color: color)
    }

    /// The colour as one little-endian BGRA word with alpha 255.
    static func packed(_ color: RenderColor) -> UInt32 {
        UInt32(color.b) | UInt32(color.g) << 8 | UInt32(color.r) << 16 | 0xFF00_0000
    }
}
