import FaceCore

/// Burns the configured overlays into each upright BGRA frame: anonymisation first, then boxes,
/// eye markers or sprites, mouth markers, and labels on top (the rules are `OverlayPainter`'s).
///
/// The renderer holds only its immutable configuration, so one instance can draw many frames on
/// many threads at once. Faces are drawn from `TrackedFace.display` (the smoothed observation);
/// geometry is clipped to the frame and non-finite boxes or landmarks are skipped.
public struct OverlayRenderer: FrameRenderer {
    /// What to draw.
    public let configuration: OverlayConfiguration

    /// Creates a renderer for a configuration.
    public init(configuration: OverlayConfiguration = OverlayConfiguration()) {
        self.configuration = configuration
    }

    /// Box outline thickness for a frame: 0.3% of the shorter side, at least 2 pixels.
    public static func boxThickness(width: Int, height: Int) -> Int {
        max(2, Int((0.003 * Double(min(width, height))).rounded()))
    }

    /// Draws the overlays for `faces` onto `image` in place, and anonymises `hidden` faces too.
    /// With no faces the frame is untouched.
    public func render(_ faces: [TrackedFace], hiding hidden: [TrackedFace], on image: BGRAImage) {
        guard !faces.isEmpty || !hidden.isEmpty || configuration.legend, !image.isEmpty else { return }
        OverlayPainter(configuration: configuration).paint(faces, hiding: hidden, on: Canvas(image, eyeSprite: configuration.eyeSprite,
                                                                                     maskImage: configuration.maskImage))
        image.contentsDidChange()
    }
}
