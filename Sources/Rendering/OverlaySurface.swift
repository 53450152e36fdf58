import FaceCore
/// What the overlay painter draws on: the BGRA `Canvas` or the planar `YUVCanvas`. Geometry is in
/// upright frame pixels and every call is clipped to the frame, so callers may pass shapes partly
/// or wholly outside it. Colours are the configuration's `RenderColor`s; each surface turns them
/// into its own pixel values.
protocol OverlaySurface {
    /// Upright width in pixels.
    var width: Int { get }
    /// Upright height in pixels.
    var height: Int { get }
    /// Fills a rectangle with an opaque colour.
    func fill(_ rect: PixelRect, color: RenderColor)
    /// Draws the outline of `rect`, `thickness` pixels on its inside (see `PixelRect.strokeHole`).
    func stroke(_ rect: PixelRect, thickness: Int, color: RenderColor)
    /// Scales the configured eye sprite to fill each of `dests` (a face's eyes) and blends it
    /// over the frame, later rectangles over earlier ones.
    func drawEyeSprites(in dests: [PixelRect])
    /// Box-blurs the frame under `mask` with box radius `radius` (see `BoxBlur`).
    func blur(_ mask: EllipseMask, radius: Int)
    /// Paints the frame under `mask` in `block` x `block` squares of their average colour,
    /// anchored at the mask's top-left corner.
    func pixelate(_ mask: EllipseMask, block: Int)
    /// Fills the frame under `mask` with an opaque colour.
    func fill(_ mask: EllipseMask, color: RenderColor)
    /// Scales the configured mask picture to fill `dest` and blends it over the frame; false
    /// (nothing drawn) when there is no picture.
    func drawMaskImage(in dest: PixelRect) -> Bool
}
