import FaceCore

/// The picture of `--anonymize image:FILE`, kept at its loaded size and at successive halvings,
/// all made once at load. A mask is drawn from the smallest one at least as large as the mask
/// box, so bilinear sampling never skips source pixels by more than one in two (a 512-pixel
/// emoji on a 30-pixel face stays smooth) and no frame decodes or scales the file again.
public struct MaskImage: Sendable {
    /// The picture at its loaded size first, then each level half the one before, down to
    /// `smallestSide` pixels on the longer side.
    let levels: [Sprite]

    /// Halving stops at this longer side.
    static let smallestSide = 8

    /// Creates the levels from an image with straight alpha, as decoded from a PNG.
    public init(image: BGRAImage) throws(RenderingError) {
        self.init(try Sprite(image: image))
    }

    /// Creates the levels from a sprite (already premultiplied).
    init(_ sprite: Sprite) {
        var levels = [sprite]
        while let last = levels.last, max(last.width, last.height) > Self.smallestSide {
            levels.append(last.halved())
        }
        self.levels = levels
    }

    /// Width and height of the picture as loaded.
    public var size: (width: Int, height: Int) { (levels[0].width, levels[0].height) }

    /// The smallest level at least `width` x `height` pixels, or the largest when none is.
    func level(width: Int, height: Int) -> Sprite {
        levels.last { $0.width >= width && $0.height >= height } ?? levels[0]
    }
}

extension Sprite {
    /// The sprite at half the size (rounded up): each pixel the mean of a 2 x 2 block of
    /// premultiplied pixels, the last column or row repeated when the size is odd.
    func halved() -> Sprite {
        let w = (width + 1) / 2, h = (height + 1) / 2
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let r0 = 2 * y * width, r1 = min(2 * y + 1, height - 1) * width
            for x in 0..<w {
                let c0 = 2 * x, c1 = min(2 * x + 1, width - 1)
                for c in 0..<4 {
                    let sum = Int(premultiplied[(r0 + c0) * 4 + c]) + Int(premultiplied[(r0 + c1) * 4 + c])
                        + Int(premultiplied[(r1 + c0) * 4 + c]) + Int(premultiplied[(r1 + c1) * 4 + c])
                    pixels[(y * w + x) * 4 + c] = UInt8((sum + 2) / 4)
                }
            }
        }
        return Sprite(width: w, height: h, premultiplied: pixels)
    }
}

/// `MaskImage` converted once to one YUV encoding.
struct YUVMaskImage: Sendable {
    /// The levels of the `MaskImage`, in the same order.
    let levels: [YUVSprite]

    init(_ image: MaskImage, encoding: YUVEncoding) {
        levels = image.levels.map { YUVSprite($0, encoding: encoding) }
    }

    /// The smallest level at least `width` x `height` pixels, or the largest when none is.
    func level(width: Int, height: Int) -> YUVSprite {
        levels.last { $0.width >= width && $0.height >= height } ?? levels[0]
    }
}
