import FaceCore

/// Draws the same overlays as `OverlayRenderer` straight onto planar YUV pictures (the encoder's
/// format), so frames with faces need no round trip through BGRA.
///
/// Everything `OverlayRenderer` draws has a YUV counterpart: boxes, eye squares, mouth markers,
/// labels, eye sprites, and blur, pixelate, fill and image anonymisation. Work is limited to the pixels
/// the overlays cover. Faces come in upright-frame coordinates and the picture in its stored
/// orientation: geometry is mapped, never the picture turned, and labels and sprites still read
/// upright on display. Luma matches the BGRA renderer to rounding; a chroma sample whose
/// footprint an overlay covers only in part gets the mean of what its pixels would show, except
/// where two overlays of different colours share one sample (the later one then mixes over the
/// earlier as if it were spread evenly over the sample).
///
/// Colours and the sprite are converted once, for the encoding given at creation. Like
/// `OverlayRenderer` it holds only immutable state, so one instance can draw many frames at once.
///
/// No overlay needs BGRA. What stays on the BGRA path is pictures `YUVImage` cannot describe:
/// semi-planar (NV12, P010) and packed or RGB formats, 4:1:1 and 4:4:0 subsampling, more than
/// 16 bits, and 16-bit samples on a big-endian machine. Those are converted to BGRA, drawn with
/// `OverlayRenderer` and converted back, as before (the encoder takes `yuv420p` today, so frames
/// bound for it are always planar).
package struct YUVOverlayRenderer: Sendable {
    /// What to draw.
    package let configuration: OverlayConfiguration
    /// The encoding colours were converted for.
    package let encoding: YUVEncoding
    private let palette: YUVPalette
    private let eyeSprite: YUVSprite?
    private let maskImage: YUVMaskImage?

    /// Creates a renderer for pictures in `encoding`.
    package init(configuration: OverlayConfiguration = OverlayConfiguration(), encoding: YUVEncoding) {
        self.configuration = configuration
        self.encoding = encoding
        palette = YUVPalette(OverlayPainter(configuration: configuration).colors, encoding: encoding)
        eyeSprite = configuration.eyeSprite.map { YUVSprite($0, encoding: encoding) }
        maskImage = configuration.maskImage.map { YUVMaskImage($0, encoding: encoding) }
    }

    /// Draws the overlays for `faces` (upright-frame coordinates) onto `image`, which is stored
    /// turned by `orientation` (the upright frame is `orientation.uprightSize` of it). A picture
    /// in another encoding is drawn correctly too, converting the colours for that call only.
    package func render(_ faces: [TrackedFace], hiding hidden: [TrackedFace] = [], on image: YUVImage,
                        orientation: ImageOrientation = .up) {
        guard !faces.isEmpty || !hidden.isEmpty || configuration.legend else { return }
        guard image.encoding == encoding else {
            YUVOverlayRenderer(configuration: configuration, encoding: image.encoding)
                .render(faces, hiding: hidden, on: image, orientation: orientation)
            return
        }
        let map = OrientationMap(orientation, storedWidth: image.width, storedHeight: image.height)
        let painter = OverlayPainter(configuration: configuration)
        if encoding.bytesPerSample == 1 {
            painter.paint(faces, hiding: hidden, on: YUVCanvas<UInt8>(planes: YUVPlanes(image), map: map, palette: palette,
                                                                      eyeSprite: eyeSprite, maskImage: maskImage))
        } else {
            painter.paint(faces, hiding: hidden, on: YUVCanvas<UInt16>(planes: YUVPlanes(image), map: map, palette: palette,
                                                                       eyeSprite: eyeSprite, maskImage: maskImage))
        }
    }
}
