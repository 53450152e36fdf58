import FaceCore

/// Hides one face at a time: blurs, pixelates or fills the mask around its box (ellipse or box),
/// with a strength that follows the face size, or covers the mask box with the mask picture.
struct Anonymizer {
    let mode: AnonymizeMode
    let maskScale: Double
    let maskShape: MaskShape
    let fillColor: RenderColor

    /// Hides the mask around `face` on `surface`; boxes that are not finite and positive are skipped.
    func apply<Surface: OverlaySurface>(to face: Rect, on surface: Surface) {
        guard let mask = EllipseMask(face: face, scale: maskScale, shape: mode == .image ? .box : maskShape),
              !mask.bounds.clipped(width: surface.width, height: surface.height).isEmpty else { return }
        // Strength follows the face size; capped so absurd boxes cannot make absurd work.
        let faceSize = min(min(face.width, face.height), Double(PixelRect.limit))
        switch mode {
        case .blur: surface.blur(mask, radius: max(1, Int(faceSize / 8)))
        case .pixelate: surface.pixelate(mask, block: max(2, Int(faceSize / 10)))
        case .fill: surface.fill(mask, color: fillColor)
        case .image: if !surface.drawMaskImage(in: mask.boxPixels) { surface.fill(mask, color: fillColor) }
        }
    }
}
