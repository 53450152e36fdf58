import FaceCore

/// Clipped drawing primitives on an upright BGRA frame. Every write is clipped to the frame, so
/// callers may pass rectangles partly or wholly outside it.
struct Canvas: OverlaySurface {
    let image: BGRAImage
    let width: Int
    let height: Int
    /// What `drawEyeSprites` draws.
    let eyeSprite: Sprite?
    /// What `drawMaskImage` draws.
    let maskImage: MaskImage?

    init(_ image: BGRAImage, eyeSprite: Sprite? = nil, maskImage: MaskImage? = nil) {
        self.image = image
        self.eyeSprite = eyeSprite
        self.maskImage = maskImage
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
        guard let hole = rect.strokeHole(thickness: thickness) else {
            fill(rect, color: color)
            return
        }
        fill(PixelRect(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: hole.y0), color: color)
        fill(PixelRect(x0: rect.x0, y0: hole.y1, x1: rect.x1, y1: rect.y1), color: color)
        fill(PixelRect(x0: rect.x0, y0: hole.y0, x1: hole.x0, y1: hole.y1), color: color)
        fill(PixelRect(x0: hole.x1, y0: hole.y0, x1: rect.x1, y1: hole.y1), color: color)
    }

    func drawEyeSprites(in dests: [PixelRect]) {
        guard let eyeSprite else { return }
        for dest in dests { draw(eyeSprite, in: dest) }
    }

    func drawMaskImage(in dest: PixelRect) -> Bool {
        guard let maskImage else { return false }
        draw(maskImage.level(width: dest.width, height: dest.height), in: dest)
        return true
    }

    /// The colour as one little-endian BGRA word with alpha 255.
    static func packed(_ color: RenderColor) -> UInt32 {
        UInt32(color.b) | UInt32(color.g) << 8 | UInt32(color.r) << 16 | 0xFF00_0000
    }
}
