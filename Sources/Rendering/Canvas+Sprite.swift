import FaceCore
extension Canvas {
    /// Scales `sprite` to fill `dest` (bilinear, sampled on the fly so nothing is cached between
    /// threads) and blends it over the frame: out = sprite + frame * (1 − alpha), with the sprite
    /// premultiplied.
    func draw(_ sprite: Sprite, in dest: PixelRect) {
        let clip = dest.clipped(width: width, height: height)
        guard !clip.isEmpty, !dest.isEmpty else { return }
        let scaleX = Double(sprite.width) / Double(dest.width)
        let scaleY = Double(sprite.height) / Double(dest.height)
        let spriteStride = sprite.width * 4
        // Horizontal taps are the same on every row: work them out once per draw, on the stack.
        withUnsafeTemporaryAllocation(of: (Int, Int, Int).self, capacity: clip.width) { columns in
            for x in clip.x0..<clip.x1 {
                columns[x - clip.x0] = Canvas.tap((Double(x - dest.x0) + 0.5) * scaleX - 0.5, count: sprite.width)
            }
            sprite.premultiplied.withUnsafeBufferPointer { buffer in
                guard let src = buffer.baseAddress else { return }
                for y in clip.y0..<clip.y1 {
                    let (sy0, sy1, fy) = Canvas.tap((Double(y - dest.y0) + 0.5) * scaleY - 0.5, count: sprite.height)
                    blendRow(y, from: clip.x0, row0: src + sy0 * spriteStride, row1: src + sy1 * spriteStride,
                             fy: fy, columns: columns)
                }
            }
        }
    }

    /// Blends one frame row from two sprite rows, `fy` (in 1/256) towards the second, with the
    /// precomputed horizontal taps for the columns from `x0` on.
    @inline(__always)
    private func blendRow(_ y: Int, from x0: Int, row0: UnsafePointer<UInt8>, row1: UnsafePointer<UInt8>, fy: Int,
                          columns: UnsafeMutableBufferPointer<(Int, Int, Int)>) {
        let out = image.row(y) + x0 * 4
        for (i, (sx0, sx1, fx)) in columns.enumerated() {
            // Weights in 1/65536: the four neighbours of the sample point.
            let w00 = (256 - fx) * (256 - fy), w01 = fx * (256 - fy)
            let w10 = (256 - fx) * fy, w11 = fx * fy
            let p00 = row0 + sx0 * 4, p01 = row0 + sx1 * 4, p10 = row1 + sx0 * 4, p11 = row1 + sx1 * 4
            let alpha = Canvas.mix(p00[3], p01[3], p10[3], p11[3], w00, w01, w10, w11)
            if alpha == 0 { continue }
            let keep = 255 - alpha
            let d = out + i * 4
            for c in 0..<3 {
                let s = Canvas.mix(p00[c], p01[c], p10[c], p11[c], w00, w01, w10, w11)
                d[c] = UInt8(min(255, s + (Int(d[c]) * keep + 127) / 255))
            }
            d[3] = UInt8(min(255, alpha + (Int(d[3]) * keep + 127) / 255))
        }
    }

    /// The two source indices around sample position `position` and the weight of the second in
    /// 1/256, clamped at the sprite's edges.
    @inline(__always)
    static func tap(_ position: Double, count: Int) -> (Int, Int, Int) {
        guard position > 0 else { return (0, 0, 0) }
        let i = Int(position)
        guard i < count - 1 else { return (count - 1, count - 1, 0) }
        return (i, i + 1, Int((position - Double(i)) * 256))
    }

    /// The weighted sum of four bytes with weights summing to 65536, rounded.
    @inline(__always)
    static func mix(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8,
                    _ wa: Int, _ wb: Int, _ wc: Int, _ wd: Int) -> Int {
        (Int(a) * wa + Int(b) * wb + Int(c) * wc + Int(d) * wd + 32768) >> 16
    }
}
