extension Sprite {
    /// A red heart on a transparent background, `size` x `size` pixels (at least 1), with
    /// anti-aliased edges.
    ///
    /// The shape is the implicit heart curve (x² + y² − 1)³ − x²y³ ≤ 0 (y up), which spans about
    /// x ∈ [−1.14, 1.14] and y ∈ [−1, 1.24]; each pixel's alpha is the share of a 4 x 4 grid of
    /// sample points inside it.
    public static func heart(size: Int = 64, color: RenderColor = RenderColor(r: 230, g: 20, b: 60)) -> Sprite {
        let n = max(1, min(size, 4096))
        let samples = 4
        // The curve fits in a square 2.5 units wide; its centre sits 0.12 above the origin.
        // Coordinates are taken from the sprite's centre so mirrored pixels give exactly mirrored x.
        let unit = 2.5 / Double(n), half = Double(n) / 2, lift = 0.12
        var pixels = [UInt8](repeating: 0, count: n * n * 4)
        for py in 0..<n {
            for px in 0..<n {
                var inside = 0
                for sy in 0..<samples {
                    let y = lift - (Double(py) + (Double(sy) + 0.5) / Double(samples) - half) * unit
                    for sx in 0..<samples {
                        let x = (Double(px) + (Double(sx) + 0.5) / Double(samples) - half) * unit
                        let q = x * x + y * y - 1
                        if q * q * q - x * x * y * y * y <= 0 { inside += 1 }
                    }
                }
                let a = UInt32((inside * 255 + samples * samples / 2) / (samples * samples))
                let d = (py * n + px) * 4
                pixels[d] = premultiply(color.b, a)
                pixels[d + 1] = premultiply(color.g, a)
                pixels[d + 2] = premultiply(color.r, a)
                pixels[d + 3] = UInt8(a)
            }
        }
        return Sprite(width: n, height: n, premultiplied: pixels)
    }
}
