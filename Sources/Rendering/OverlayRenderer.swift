import FaceCore

/// Burns the configured overlays into each upright frame: anonymisation first, then boxes, eye
/// markers or sprites, mouth markers, and labels on top.
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

    /// Draws the overlays for `faces` onto `image` in place. With no faces the frame is untouched.
    public func render(_ faces: [TrackedFace], on image: BGRAImage) {
        guard !faces.isEmpty, !image.isEmpty else { return }
        let canvas = Canvas(image)
        if let mode = configuration.anonymize {
            let scale = configuration.maskScale
            let anonymizer = Anonymizer(mode: mode,
                                        maskScale: scale.isFinite && scale > 0 ? scale : OverlayConfiguration.defaultMaskScale,
                                        fillColor: configuration.fillColor)
            for face in faces { anonymizer.apply(to: face.display.bounds, on: canvas) }
        }
        let kinds = configuration.kinds
        if !kinds.isEmpty {
            for face in faces { drawMarkers(face.display, on: canvas, kinds: kinds) }
            if kinds.contains(.labels) {
                for face in faces where face.display.bounds.isValid {
                    FaceLabel.draw(trackID: face.trackID, confidence: face.display.confidence,
                                   above: boxPixels(face.display.bounds), on: canvas)
                }
            }
        }
        image.contentsDidChange()
    }

    /// Box, eyes and mouth of one face.
    private func drawMarkers(_ face: FaceObservation, on canvas: Canvas, kinds: Set<OverlayKind>) {
        guard face.bounds.isValid else { return }
        if kinds.contains(.boxes) {
            let color = configuration.boxColor ?? (face.hasSmile == true ? .green : .red)
            let thickness = OverlayRenderer.boxThickness(width: canvas.width, height: canvas.height)
            canvas.stroke(boxPixels(face.bounds), thickness: thickness, color: color)
        }
        let drawEyes = kinds.contains(.eyes), drawMouth = kinds.contains(.mouth)
        guard drawEyes || drawMouth else { return }
        let eyeDistance = min(OverlayRenderer.eyeDistance(of: face), 4 * Double(max(canvas.width, canvas.height)))
        if drawEyes {
            drawEye(face.leftEye, eyeDistance: eyeDistance, on: canvas)
            drawEye(face.rightEye, eyeDistance: eyeDistance, on: canvas)
        }
        if drawMouth, let mouth = face.mouth, mouth.isFinite {
            let w = max(4, Int((0.4 * eyeDistance).rounded())), h = max(2, Int((0.1 * eyeDistance).rounded()))
            canvas.fill(PixelRect(centerX: mouth.x, centerY: mouth.y, width: w, height: h), color: .cyan)
        }
    }

    /// The eye sprite, scaled to the eye distance, or a magenta square 0.15 eye distances wide.
    private func drawEye(_ eye: Point?, eyeDistance: Double, on canvas: Canvas) {
        guard let eye, eye.isFinite else { return }
        if let sprite = configuration.eyeSprite {
            let w = max(1, Int(eyeDistance.rounded()))
            let h = max(1, Int((eyeDistance * Double(sprite.height) / Double(sprite.width)).rounded()))
            canvas.draw(sprite, in: PixelRect(centerX: eye.x, centerY: eye.y, width: w, height: h))
        } else {
            let side = max(2, Int((0.15 * eyeDistance).rounded()))
            canvas.fill(PixelRect(centerX: eye.x, centerY: eye.y, width: side, height: side), color: .magenta)
        }
    }

    /// The box rounded to whole pixels, at least one pixel each way so tiny faces stay visible.
    private func boxPixels(_ bounds: Rect) -> PixelRect {
        var box = PixelRect(minX: bounds.x, minY: bounds.y, maxX: bounds.maxX, maxY: bounds.maxY)
        if box.x1 <= box.x0 { box.x1 = box.x0 + 1 }
        if box.y1 <= box.y0 { box.y1 = box.y0 + 1 }
        return box
    }

    /// Distance between the eyes, or 40% of the box width when an eye is missing; sizes the eye
    /// and mouth markers.
    static func eyeDistance(of face: FaceObservation) -> Double {
        if let l = face.leftEye, let r = face.rightEye, l.isFinite, r.isFinite {
            let d = l.distance(to: r)
            if d.isFinite { return d }
        }
        return 0.4 * face.bounds.width
    }
}
