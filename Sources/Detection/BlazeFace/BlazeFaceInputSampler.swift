import FaceCore

/// Fills a BlazeFace input tensor from a BGRA frame: letterboxed to a square (black bars),
/// bilinear-resized to N x N, RGB, scaled to [-1, 1]. Frames much larger than the input are
/// first shrunk by an integer factor (block average) so the bilinear step does not alias.
struct BlazeFaceInputSampler {
    /// Network input side.
    let size: Int

    /// One input column or row: the two source indices and the weight of the second (a nil tap
    /// marks the letterbox's black bars).
    private struct Tap {
        let lower: Int
        let upper: Int
        let weight: Float
    }

    /// The integer shrink factor for a frame: about half the ratio of its longer side to the input
    /// side (so at least two source pixels remain per input pixel), never more than either side.
    func shrinkFactor(width: Int, height: Int) -> Int {
        max(1, min(max(width, height) / (2 * size), width, height))
    }

    /// Writes `size * size * 3` floats for `image` (which must not be empty) into `input`.
    func fill(_ input: UnsafeMutableBufferPointer<Float>, from image: BGRAImage) {
        let factor = shrinkFactor(width: image.width, height: image.height)
        let source = image.downscaled(by: factor)
        let columns = taps(frameSize: image.width, side: max(image.width, image.height), factor: factor,
                           sourceSize: source.width)
        let rows = taps(frameSize: image.height, side: max(image.width, image.height), factor: factor,
                        sourceSize: source.height)
        guard let base = input.baseAddress, input.count >= size * size * 3 else { return }
        let scale: Float = 2 / 255
        for (y, row) in rows.enumerated() {
            let out = base + y * size * 3
            guard let row else {
                out.update(repeating: -1, count: size * 3)
                continue
            }
            let top = source.row(row.lower), bottom = source.row(row.upper)
            let wy = row.weight
            for (x, column) in columns.enumerated() {
                let pixel = out + x * 3
                guard let column else {
                    pixel[0] = -1; pixel[1] = -1; pixel[2] = -1
                    continue
                }
                let p00 = top + column.lower * 4, p01 = top + column.upper * 4
                let p10 = bottom + column.lower * 4, p11 = bottom + column.upper * 4
                let wx = column.weight
                for channel in 0..<3 {
                    // BGRA byte order: R is byte 2, G 1, B 0.
                    let byte = 2 - channel
                    let upper = Float(p00[byte]) + (Float(p01[byte]) - Float(p00[byte])) * wx
                    let lower = Float(p10[byte]) + (Float(p11[byte]) - Float(p10[byte])) * wx
                    pixel[channel] = (upper + (lower - upper) * wy) * scale - 1
                }
            }
        }
    }

    /// Source taps along one axis. `frameSize` pixels are centred in a square of `side`; the
    /// source image has `sourceSize` pixels, each covering `factor` frame pixels.
    private func taps(frameSize: Int, side: Int, factor: Int, sourceSize: Int) -> [Tap?] {
        let offset = Double(side - frameSize) / 2
        let step = Double(side) / Double(size)
        return (0..<size).map { index in
            let position = (Double(index) + 0.5) * step - offset
            guard position >= 0, position < Double(frameSize), sourceSize > 0 else { return nil }
            let sourcePosition = min(max(position / Double(factor) - 0.5, 0), Double(sourceSize - 1))
            let lower = Int(sourcePosition)
            return Tap(lower: lower, upper: min(lower + 1, sourceSize - 1), weight: Float(sourcePosition - Double(lower)))
        }
    }
}
