import FaceCore

/// dlib's aligned face chip: the 150x150 picture its face-recognition network expects, cut from a
/// frame with the similarity transform that puts the face's eyes, nose tip and mouth where dlib's
/// template has them.
///
/// The template comes from dlib's mean face shape (the average positions of the 68 standard
/// landmarks in a unit square, published with dlib) placed as dlib's `get_face_chip_details`
/// places it for a 150-pixel chip with padding 0.25: chip = (0.25 + mean) / 1.5 * 150. The eye
/// centres are the means of each eye's six points, the nose tip is point 30 and the mouth centre
/// the midpoint of its corners (points 48 and 54). Coordinates here are continuous (a pixel's
/// centre at +0.5), dlib's are pixel indices, hence the extra 0.5.
package struct FaceChip: Sendable, Equatable {
    /// The chip's side in pixels.
    package static let size = 150
    /// Template centre of the eye on the chip's left (the subject's right eye).
    package static let leftEye = Point(x: 48.049, y: 47.099)
    /// Template centre of the eye on the chip's right.
    package static let rightEye = Point(x: 100.976, y: 47.099)
    /// Template nose tip.
    package static let nose = Point(x: 74.513, y: 77.063)
    /// Template mouth centre.
    package static let mouth = Point(x: 74.513, y: 103.523)

    /// Maps frame pixels to chip pixels.
    package let frameToChip: SimilarityTransform

    /// A chip with an explicit transform.
    package init(frameToChip: SimilarityTransform) {
        self.frameToChip = frameToChip
    }

    /// The chip of `face`, fitted (least squares) to its eyes and, when the detector gives them,
    /// its nose tip and mouth centre; nil without both eyes or when the points are degenerate.
    package init?(face: FaceObservation) {
        guard let left = face.leftEye, let right = face.rightEye, left.isFinite, right.isFinite else { return nil }
        var source = [left, right], target = [Self.leftEye, Self.rightEye]
        if let nose = face.nose, nose.isFinite {
            source.append(nose)
            target.append(Self.nose)
        }
        if let mouth = face.mouth, mouth.isFinite {
            source.append(mouth)
            target.append(Self.mouth)
        }
        guard let transform = SimilarityTransform(from: source, to: target), transform.scale > 1e-3,
              transform.scale < 1e3 else { return nil }
        frameToChip = transform
    }

    /// The same face cut `zoom` times larger about the template's centre (between the eyes and the
    /// mouth) and moved by `dx`, `dy` chip pixels: the small crops of dlib's jitter, deterministic.
    package func varied(zoom: Double, dx: Double, dy: Double) -> FaceChip {
        if zoom == 1, dx == 0, dy == 0 { return self }
        let t = frameToChip, cx = Self.nose.x, cy = (Self.leftEye.y + Self.mouth.y) / 2
        return FaceChip(frameToChip: SimilarityTransform(a: zoom * t.a, b: zoom * t.b, tx: zoom * (t.tx - cx) + cx + dx,
                                                         ty: zoom * (t.ty - cy) + cy + dy))
    }

    /// Frame pixels per chip pixel.
    package var frameScale: Double { 1 / frameToChip.scale }

    /// Writes the chip as `size * size * 3` floats, rows top to bottom, red, green, blue per
    /// pixel, each `(value - means[channel]) * scale` for 0...255 values; bilinear, black outside
    /// the frame. A face much larger than the chip is sampled from a block-averaged copy of the
    /// frame so the bilinear step does not alias.
    ///
    /// `mirrored` writes the chip mirrored about the template's vertical axis (the line through the
    /// nose tip and mouth centre), so the face keeps its place on the chip.
    package func sample(_ image: BGRAImage, into output: UnsafeMutableBufferPointer<Float>, means: [Float] = [0, 0, 0],
                        scale: Float = 1, mirrored: Bool = false) {
        guard let chipToFrame = frameToChip.inverse else { return }
        let factor = max(1, min(Int(frameScale), min(image.width, image.height) / 2))
        ChipSampler.sample(image, chipToFrame: chipToFrame, size: Self.size, into: output, means: means, scale: scale,
                           mirrorAxis: mirrored ? Self.nose.x : nil, downscale: factor)
    }
}
