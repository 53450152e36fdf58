import FaceCore

/// Cuts an aligned face chip out of a frame: the sampling loop of `FaceChip` (dlib's 150x150 chip)
/// and `SFaceChip` (SFace's 112x112 one).
enum ChipSampler {
    /// Writes a `size` x `size` chip as `size * size * 3` floats, rows top to bottom, red, green,
    /// blue per pixel, each `(value - means[channel]) * scale` for 0...255 values; bilinear, black
    /// outside the frame. Chip pixel (column, row) shows the frame at `chipToFrame` of its centre
    /// (column + 0.5, row + 0.5), both in continuous coordinates (a pixel's centre at +0.5).
    ///
    /// `downscale` > 1 samples a copy of the frame block-averaged by that factor (a face much
    /// larger than the chip, so the bilinear step does not alias). `mirrorAxis` (a chip x) writes
    /// the chip mirrored about that vertical line. Allocates nothing but the block-averaged copy
    /// (cached by the image).
    static func sample(_ image: BGRAImage, chipToFrame: SimilarityTransform, size: Int,
                       into output: UnsafeMutableBufferPointer<Float>, means: [Float], scale: Float,
                       mirrorAxis: Double?, downscale factor: Int) {
        guard let base = output.baseAddress, output.count >= size * size * 3, means.count == 3 else { return }
        let source = image.downscaled(by: factor)
        // Source index coordinates of chip pixel (0, 0) and the steps along a chip row and column.
        let k = Double(factor)
        // Mirrored, chip column c samples the chip point 2 * axis - (c + 0.5): the other way along a row.
        let direction: Double = mirrorAxis == nil ? 1 : -1
        let origin = chipToFrame.apply(Point(x: mirrorAxis.map { 2 * $0 - 0.5 } ?? 0.5, y: 0.5))
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
