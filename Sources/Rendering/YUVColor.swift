import FaceCore
/// An opaque colour as the sample values of one `YUVEncoding`.
struct YUVColor: Sendable, Equatable {
    var y: Int
    var cb: Int
    var cr: Int
}

extension YUVEncoding {
    /// Y', Cb and Cr of an 8-bit R'G'B' colour with alpha `alpha` (0-255) whose components are
    /// already premultiplied by it, unrounded: the colour's share plus alpha times the black
    /// levels, so that `value + (1 − alpha) · frame` in YUV equals blending in RGB and converting.
    /// With alpha 255 it is simply the colour's samples.
    func samples(r: UInt8, g: UInt8, b: UInt8, alpha: Int = 255) -> (y: Double, cb: Double, cr: Double) {
        let (kr, kb) = matrix.weights
        let red = Double(r) / 255, green = Double(g) / 255, blue = Double(b) / 255, a = Double(alpha) / 255
        let luma = kr * red + (1 - kr - kb) * green + kb * blue
        let pb = (blue - luma) / (2 * (1 - kb)), pr = (red - luma) / (2 * (1 - kr))
        switch range {
        case .limited:
            let unit = Double(1 << (bitDepth - 8))
            return ((219 * luma + 16 * a) * unit, (224 * pb + 128 * a) * unit, (224 * pr + 128 * a) * unit)
        case .full:
            let top = Double(maxValue), middle = Double(1 << (bitDepth - 1))
            return (luma * top, pb * top + middle * a, pr * top + middle * a)
        }
    }

    /// The samples of an opaque colour, rounded and kept within the bit depth.
    func color(_ color: RenderColor) -> YUVColor {
        let s = samples(r: color.r, g: color.g, b: color.b)
        return YUVColor(y: clampedSample(s.y), cb: clampedSample(s.cb), cr: clampedSample(s.cr))
    }

    /// `value` rounded to the nearest sample value within the bit depth.
    func clampedSample(_ value: Double) -> Int {
        min(maxValue, max(0, Int(value.rounded())))
    }
}

/// The overlay colours of one configuration converted once to one encoding, so drawing never
/// converts a colour per pixel.
struct YUVPalette: Sendable {
    let encoding: YUVEncoding
    private let entries: [(color: RenderColor, samples: YUVColor)]

    init(_ colors: [RenderColor], encoding: YUVEncoding) {
        self.encoding = encoding
        entries = colors.map { ($0, encoding.color($0)) }
    }

    /// The samples for `color`; a colour the palette was not made with is converted on the spot.
    subscript(color: RenderColor) -> YUVColor {
        for entry in entries where entry.color == color { return entry.samples }
        return encoding.color(color)
    }
}
