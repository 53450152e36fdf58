/// How far the chroma planes of a planar YUV picture are subsampled.
package enum ChromaSubsampling: Sendable, CaseIterable {
    /// Half width, half height (`yuv420p`): one chroma sample per 2 x 2 luma pixels.
    case yuv420
    /// Half width, full height (`yuv422p`).
    case yuv422
    /// Full resolution (`yuv444p`).
    case yuv444

    /// log2 of the horizontal subsampling factor.
    package var shiftX: Int { self == .yuv444 ? 0 : 1 }
    /// log2 of the vertical subsampling factor.
    package var shiftY: Int { self == .yuv420 ? 1 : 0 }
}

/// The matrix between R'G'B' and Y'CbCr.
package enum YUVColorMatrix: Sendable, CaseIterable {
    /// ITU-R BT.601 (SD video; also what FFmpeg assumes for untagged video below 720 lines).
    case bt601
    /// ITU-R BT.709 (HD video).
    case bt709
    /// ITU-R BT.2020 non-constant luminance (UHD video).
    case bt2020
    /// SMPTE 240M (early HD video).
    case smpte240m
    /// FCC (NTSC 1953).
    case fcc

    /// The luma weights of red and blue, (Kr, Kb); green's is 1 − Kr − Kb.
    package var weights: (red: Double, blue: Double) {
        switch self {
        case .bt601: return (0.299, 0.114)
        case .bt709: return (0.2126, 0.0722)
        case .bt2020: return (0.2627, 0.0593)
        case .smpte240m: return (0.212, 0.087)
        case .fcc: return (0.30, 0.11)
        }
    }
}

/// Which sample values black and white take.
package enum YUVColorRange: Sendable, CaseIterable {
    /// "TV" or "MPEG" range: luma 16-235, chroma 16-240 (times 2^(depth − 8)).
    case limited
    /// "PC" or "JPEG" range: every value of the bit depth.
    case full
}

/// How colours are written as samples: matrix, range and bit depth. Overlay colours are converted
/// once per encoding.
package struct YUVEncoding: Sendable, Equatable {
    /// The colour matrix.
    package var matrix: YUVColorMatrix
    /// The sample range.
    package var range: YUVColorRange
    /// Bits per sample, 8 to 16. Above 8, samples are 16-bit words in the machine's byte order
    /// (little-endian: FFmpeg's `…p10le` formats), holding values below 2^bitDepth.
    package var bitDepth: Int

    /// Creates an encoding.
    package init(matrix: YUVColorMatrix, range: YUVColorRange, bitDepth: Int = 8) {
        self.matrix = matrix
        self.range = range
        self.bitDepth = bitDepth
    }

    /// The bit depths `YUVImage` accepts.
    package static let bitDepths: ClosedRange<Int> = 8...16

    /// The largest sample value.
    package var maxValue: Int { (1 << bitDepth) - 1 }
    /// Bytes per sample.
    package var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }
}

/// A planar YUV picture in memory someone else owns (the planes of an `AVFrame` in the encoder's
/// format), in its stored orientation. The view is only valid while that memory is; it copies
/// nothing. Strides are in bytes and may be negative (bottom-up pictures).
///
/// Like the frame it views, it may be handed between threads but is drawn on by one at a time,
/// which is what makes the `@unchecked Sendable` safe.
package struct YUVImage: @unchecked Sendable {
    /// Luma width in pixels.
    package let width: Int
    /// Luma height in pixels.
    package let height: Int
    /// Chroma subsampling; chroma planes are `chromaWidth` x `chromaHeight` (rounded up).
    package let subsampling: ChromaSubsampling
    /// Matrix, range and bit depth of the samples.
    package let encoding: YUVEncoding
    /// First byte of the first row of Y, Cb and Cr.
    package let planes: (UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer)
    /// Bytes from one row to the next in Y, Cb and Cr.
    package let strides: (Int, Int, Int)

    /// A view of three planes, or `nil` when the description cannot be right: no pixels, a bit
    /// depth outside `YUVEncoding.bitDepths`, a stride shorter than a row, or 16-bit samples that
    /// are not 2-byte aligned (or on a big-endian machine, where `…le` samples would need swapping).
    package init?(width: Int, height: Int, subsampling: ChromaSubsampling, encoding: YUVEncoding,
                  luma: UnsafeMutableRawPointer, lumaStride: Int,
                  cb: UnsafeMutableRawPointer, cbStride: Int,
                  cr: UnsafeMutableRawPointer, crStride: Int) {
        guard width > 0, height > 0, YUVEncoding.bitDepths.contains(encoding.bitDepth) else { return nil }
        let size = encoding.bytesPerSample
        let chromaWidth = (width + (1 << subsampling.shiftX) - 1) >> subsampling.shiftX
        guard abs(lumaStride) >= width * size, abs(cbStride) >= chromaWidth * size,
              abs(crStride) >= chromaWidth * size else { return nil }
        if size == 2 {
            guard 1.littleEndian == 1, [lumaStride, cbStride, crStride].allSatisfy({ $0 % 2 == 0 }),
                  [luma, cb, cr].allSatisfy({ Int(bitPattern: $0) % 2 == 0 }) else { return nil }
        }
        self.width = width
        self.height = height
        self.subsampling = subsampling
        self.encoding = encoding
        planes = (luma, cb, cr)
        strides = (lumaStride, cbStride, crStride)
    }

    /// Width of the chroma planes: the luma width divided by the subsampling, rounded up.
    package var chromaWidth: Int { (width + (1 << subsampling.shiftX) - 1) >> subsampling.shiftX }
    /// Height of the chroma planes: the luma height divided by the subsampling, rounded up.
    package var chromaHeight: Int { (height + (1 << subsampling.shiftY) - 1) >> subsampling.shiftY }
}
