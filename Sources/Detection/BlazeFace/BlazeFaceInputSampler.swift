import FaceCore

/// Fills a BlazeFace input tensor from a BGRA frame: letterboxed into the input (black bars),
/// bilinear-resized, RGB, scaled to [-1, 1]. Frames much larger than the input are first shrunk
/// by an integer factor (block average) so the bilinear step does not alias.
struct BlazeFaceInputSampler {
    /// Network input side (the longer side of a non-square input).
    let size: Int

    /// The integer shrink factor for a frame: about half the ratio of its longer side to the input
    /// side (so at least two source pixels remain per input pixel), never more than either side.
    func shrinkFactor(width: Int, height: Int) -> Int {
        max(1, min(max(width, height) / (2 * size), width, height))
    }

    /// Writes `letterbox.inputWidth * letterbox.inputHeight * 3` floats for `image` (which must
    /// not be empty, and have the letterbox's frame size) into `input`.
    func fill(_ input: UnsafeMutableBufferPointer<Float>, from image: BGRAImage, letterbox: Letterbox) {
        let width = letterbox.inputWidth, height = letterbox.inputHeight
        let factor = shrinkFactor(width: image.width, height: image.height)
        let source = image.downscaled(by: factor)
        let extent = letterbox.extent
        let columns = taps(frameSize: image.width, extent: extent.width, count: width, factor: factor,
                           sourceSize: source.width)
        let rows = taps(frameSize: image.height, extent: extent.height, count: height, factor: factor,
                        sourceSize: source.height)
        guard let base = input.baseAddress, input.count >= width * height * 3 else { return }
        let scale: Float = 2 / 255
        for (y, row) in rows.enumerated() {
            let out = base + y * width * 3
            guard let row else {
                out.update(repeating: -1, count: width * 3)
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
                column.writeRGB(pixel, top: top, bottom: bottom, rowWeight: wy, scale: scale, offset: -1)
            }
        }
    }

    /// Source taps along one axis (nil marks the letterbox's black bars): `count` input pixels span
    /// `extent` frame pixels, the frame's `frameSize` pixels centred in them; the source image has
    /// `sourceSize` pixels, each covering `factor` frame pixels.
    private func taps(frameSize: Int, extent: Double, count: Int, factor: Int, sourceSize: Int) -> [BilinearTap?] {
        let offset = (extent - Double(frameSize)) / 2
        let step = extent / Double(count)
        return (0..<count).map { index in
            let position = (Double(index) + 0.5) * step - offset
            guard position >= 0, position < Double(frameSize), sourceSize > 0 else { return nil }
            let sourcePosition = min(max(position / Double(factor) - 0.5, 0), Double(sourceSize - 1))
            let lower = Int(sourcePosition)
            return BilinearTap(lower: lower, upper: min(lower + 1, sourceSize - 1), weight: Float(sourcePosition - Double(lower)))
        }
    }
}
