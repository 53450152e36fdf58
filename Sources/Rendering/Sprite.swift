import FaceCore

/// An image drawn centred on each eye, scaled to the eye distance and alpha-blended onto the frame.
///
/// The pixels are kept premultiplied by alpha so bilinear sampling does not bleed the colour of
/// transparent pixels into the edges. A sprite is an immutable value, safe to share across the
/// threads that render frames.
public struct Sprite: Sendable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// `width * height` pixels, 4 bytes each: B, G, R premultiplied by A, then A.
    let premultiplied: [UInt8]

    /// The names of sprites the program draws itself (`--eye-sprite heart`).
    public static let builtInNames = ["heart"]

    /// Creates a sprite from an image with straight (not premultiplied) alpha, as decoded from a PNG.
    public init(image: BGRAImage) throws(RenderingError) {
        guard !image.isEmpty else { throw .emptySprite }
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * 4)
        for y in 0..<image.height {
            let src = image.row(y)
            for x in 0..<image.width {
                let s = src + x * 4, d = (y * image.width + x) * 4
                let a = UInt32(s[3])
                pixels[d] = Sprite.premultiply(s[0], a)
                pixels[d + 1] = Sprite.premultiply(s[1], a)
                pixels[d + 2] = Sprite.premultiply(s[2], a)
                pixels[d + 3] = s[3]
            }
        }
        self.init(width: image.width, height: image.height, premultiplied: pixels)
    }

    init(width: Int, height: Int, premultiplied: [UInt8]) {
        self.width = width
        self.height = height
        self.premultiplied = premultiplied
    }

    /// A sprite the program draws itself, or `nil` for an unknown name (then it is a file name).
    public static func builtIn(named name: String, size: Int = 64) -> Sprite? {
        switch name.lowercased() {
        case "heart": return heart(size: size)
        default: return nil
        }
    }

    /// Rounds `c * a / 255`.
    @inline(__always)
    static func premultiply(_ c: UInt8, _ a: UInt32) -> UInt8 {
        UInt8((UInt32(c) * a + 127) / 255)
    }
}
