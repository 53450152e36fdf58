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
        let size = Self.size
        guard let base = output.baseAddress, output.count >= size * size * 3, means.count == 3,
              let chipToFrame = frameToChip.inverse else { return }
        let factor = max(1, min(Int(frameScale), min(image.width, image.height) / 2))
        let source = image.downscaled(by: factor)
        // Source index coordinates of chip pixel (0, 0) and the steps along a chip row and column.
        let k = Double(factor)
        // Mirrored, chip column c samples the chip point 2 * axis - (c + 0.5): the other way along a row.
        let direction: Double = mirrored ? -1 : 1
        let origin = chipToFrame.apply(Point(x: mirrored ? 2 * Self.nose.x - 0.5 : 0.5, y: 0.5))
        let x0 = origin.x / k - 0.5, y0 = origin.y / k - 0.5
        let columnX = direction * chipToFrame.a / k, columnY = direction * chipToFrame.b / k
        let rowX = -chipToFrame.b / k, rowY = chipToFrame.a / k
        let width = source.width, height = source.height
        let mean = (means[0], means[1], means[2])
        for row in 0..<size {
            for column in 0..<size {
                let sx = x0 + Double(column) * columnX + Double(row) * rowX
                let sy = y0 + Double(column) * columnY + Double(row) * rowY
                var red: Float = 0, green: Float = 0, blue: Float = 0
                if sx > -1, sy > -1, sx < Double(width), sy < Double(height) {
                    // floor by truncation (exact above -1): rounded(.down) calls libm's floor on
                    // the x86-64 baseline, which has no roundsd.
                    let tx = Double(Int(sx)), ty = Double(Int(sy))
                    let fx = tx > sx ? tx - 1 : tx, fy = ty > sy ? ty - 1 : ty
                    let wx = Float(sx - fx), wy = Float(sy - fy)
                    let ix = Int(fx), iy = Int(fy)
                    for tap in 0..<4 {
                        let x = ix + (tap & 1), y = iy + (tap >> 1)
                        guard x >= 0, x < width, y >= 0, y < height else { continue }
                        let weight = (tap & 1 == 0 ? 1 - wx : wx) * (tap >> 1 == 0 ? 1 - wy : wy)
                        let pixel = source.row(y) + x * 4
                        blue += Float(pixel[0]) * weight
                        green += Float(pixel[1]) * weight
                        red += Float(pixel[2]) * weight
                    }
                }
                let out = base + (row * size + column) * 3
                out[0] = (red - mean.0) * scale
                out[1] = (green - mean.1) * scale
                out[2] = (blue - mean.2) * scale
            }
        }
    }
}
