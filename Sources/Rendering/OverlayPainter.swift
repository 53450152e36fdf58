import FaceCore

/// The drawing rules shared by the BGRA and the YUV renderer: what goes where, how large and in
/// which order (anonymisation first, then boxes, eye markers or sprites, mouth markers, and labels
/// on top). Surfaces only fill, stroke, blend the sprite and hide ellipses.
struct OverlayPainter {
    let configuration: OverlayConfiguration

    /// Draws the overlays for `faces` on `surface`; `hidden` faces are only anonymised (faces the
    /// output does not list, such as tracks never confirmed: privacy first).
    func paint<Surface: OverlaySurface>(_ faces: [TrackedFace], hiding hidden: [TrackedFace] = [], on surface: Surface) {
        if let mode = configuration.anonymize {
            let scale = configuration.maskScale
            let anonymizer = Anonymizer(mode: mode,
                                        maskScale: scale.isFinite && scale > 0 ? scale : OverlayConfiguration.defaultMaskScale,
                                        maskShape: configuration.maskShape, fillColor: configuration.fillColor)
            for face in faces where face.masked { anonymizer.apply(to: MaskRegion.region(of: face), on: surface) }
            for face in hidden where face.masked { anonymizer.apply(to: MaskRegion.region(of: face), on: surface) }
        }
        let kinds = configuration.kinds
        if !kinds.isEmpty {
            for face in faces { drawMarkers(face.display, mark: face.diffMark, on: surface, kinds: kinds) }
        }
        if kinds.contains(.labels) {
            for face in faces where face.display.bounds.isValid {
                let box = boxPixels(face.display.bounds)
                if let mark = face.diffMark {
                    FaceLabel.draw(text: DiffStyle.label(mark, trackID: face.trackID, confidence: face.display.confidence),
                                   above: box, on: surface)
                    continue
                }
                // A masked face's name is not drawn: the mask would be pointless.
                let person = configuration.anonymize != nil && face.masked ? nil : face.person
                FaceLabel.draw(trackID: face.trackID, confidence: face.display.confidence, person: person, above: box, on: surface)
            }
        }
        if configuration.legend { DiffStyle.drawLegend(on: surface) }
    }

    /// Box, eyes and mouth of one face; a diff's faces get their mark's colour (an ID switch a
    /// second, outer box).
    private func drawMarkers<Surface: OverlaySurface>(_ face: FaceObservation, mark: DiffMark?, on surface: Surface,
                                                      kinds: Set<OverlayKind>) {
        // A held mask's row may follow a face out of the picture: nothing of it to draw.
        guard face.bounds.isValid, !boxPixels(face.bounds).clipped(width: surface.width, height: surface.height).isEmpty else { return }
        if kinds.contains(.boxes) {
            let color = mark.map(DiffStyle.color) ?? configuration.boxColor ?? (face.hasSmile == true ? .green : .red)
            let thickness = OverlayRenderer.boxThickness(width: surface.width, height: surface.height)
            let box = boxPixels(face.bounds)
            surface.stroke(box, thickness: thickness, color: color)
            if case .switched = mark {
                let ring = 2 * thickness
                surface.stroke(PixelRect(x0: box.x0 - ring, y0: box.y0 - ring, x1: box.x1 + ring, y1: box.y1 + ring),
                               thickness: thickness, color: DiffStyle.switchColor)
            }
        }
        let drawEyes = kinds.contains(.eyes), drawMouth = kinds.contains(.mouth)
        guard drawEyes || drawMouth else { return }
        let eyeDistance = min(OverlayPainter.eyeDistance(of: face), 4 * Double(max(surface.width, surface.height)))
        if drawEyes {
            let eyes = [face.leftEye, face.rightEye].compactMap { $0 }.filter(\.isFinite)
            if let sprite = configuration.eyeSprite {
                // The sprite scaled to the eye distance; both eyes in one call, as they touch.
                let w = max(1, Int(eyeDistance.rounded()))
                let h = max(1, Int((eyeDistance * Double(sprite.height) / Double(sprite.width)).rounded()))
                if !eyes.isEmpty {
                    surface.drawEyeSprites(in: eyes.map { PixelRect(centerX: $0.x, centerY: $0.y, width: w, height: h) })
                }
            } else {
                // A magenta square 0.15 eye distances wide.
                let side = max(2, Int((0.15 * eyeDistance).rounded()))
                for eye in eyes {
                    surface.fill(PixelRect(centerX: eye.x, centerY: eye.y, width: side, height: side), color: .magenta)
                }
            }
        }
        if drawMouth, let mouth = face.mouth, mouth.isFinite {
            let w = max(4, Int((0.4 * eyeDistance).rounded())), h = max(2, Int((0.1 * eyeDistance).rounded()))
            surface.fill(PixelRect(centerX: mouth.x, centerY: mouth.y, width: w, height: h), color: .cyan)
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

    /// Every colour `paint` can draw with this configuration, so a surface can convert them up front.
    var colors: [RenderColor] {
        [configuration.boxColor ?? .red, .red, .green, .magenta, .cyan, FaceLabel.plateColor, FaceLabel.textColor,
         configuration.fillColor] + DiffStyle.colors
    }
}
