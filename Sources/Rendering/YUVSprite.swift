import FaceCore
/// The eye sprite converted once to one encoding: premultiplied Y', Cb, Cr and alpha per pixel
/// (see `YUVEncoding.samples`), row by row as in `Sprite`.
struct YUVSprite: Sendable {
    let width: Int
    let height: Int
    /// `width * height` pixels, four values each: Y', Cb, Cr (sample units) and alpha (0-255).
    let values: [Int32]

    init(_ sprite: Sprite, encoding: YUVEncoding) {
        width = sprite.width
        height = sprite.height
        var values = [Int32](repeating: 0, count: sprite.width * sprite.height * 4)
        for i in 0..<(sprite.width * sprite.height) {
            let p = i * 4, alpha = Int(sprite.premultiplied[p + 3])
            let s = encoding.samples(r: sprite.premultiplied[p + 2], g: sprite.premultiplied[p + 1],
                                     b: sprite.premultiplied[p], alpha: alpha)
            values[p] = Int32(encoding.clampedSample(s.y))
            values[p + 1] = Int32(encoding.clampedSample(s.cb))
            values[p + 2] = Int32(encoding.clampedSample(s.cr))
            values[p + 3] = Int32(alpha)
        }
        self.values = values
    }
}
