import FaceCore
@testable import Rendering

/// A planar YUV picture owned by a test, with guard bytes around every plane (to catch writes
/// outside it) and its own conversions to and from BGRA, written from the standards' formulas
/// independently of the renderer's, for comparing the YUV renderer with the BGRA one.
final class YUVTestFrame {
    let width: Int
    let height: Int
    let subsampling: ChromaSubsampling
    let encoding: YUVEncoding
    /// Per plane (Y, Cb, Cr): size in samples, bytes per row, and the buffer with guards.
    let sizes: [(width: Int, height: Int)]
    let strides: [Int]
    private let buffers: [UnsafeMutableRawPointer]
    private let byteCounts: [Int]
    static let guardBytes = 64
    static let guardValue: UInt8 = 0xA5

    init(width: Int, height: Int, subsampling: ChromaSubsampling = .yuv420, encoding: YUVEncoding) {
        self.width = width
        self.height = height
        self.subsampling = subsampling
        self.encoding = encoding
        let cw = (width + (1 << subsampling.shiftX) - 1) >> subsampling.shiftX
        let ch = (height + (1 << subsampling.shiftY) - 1) >> subsampling.shiftY
        sizes = [(width, height), (cw, ch), (cw, ch)]
        // Rows padded by 6 bytes so the padding is checked too.
        strides = sizes.map { $0.width * encoding.bytesPerSample + 6 }
        byteCounts = zip(sizes, strides).map { $0.0.height * $0.1 + 2 * YUVTestFrame.guardBytes }
        buffers = byteCounts.map { count in
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
            buffer.initializeMemory(as: UInt8.self, repeating: YUVTestFrame.guardValue, count: count)
            return buffer
        }
    }

    deinit { buffers.forEach { $0.deallocate() } }

    /// The renderer's view of the frame.
    var image: YUVImage {
        let g = YUVTestFrame.guardBytes
        guard let image = YUVImage(width: width, height: height, subsampling: subsampling, encoding: encoding,
                                   luma: buffers[0] + g, lumaStride: strides[0], cb: buffers[1] + g, cbStride: strides[1],
                                   cr: buffers[2] + g, crStride: strides[2]) else { fatalError("bad test frame") }
        return image
    }

    /// One sample of plane 0 (Y), 1 (Cb) or 2 (Cr).
    func sample(_ plane: Int, _ x: Int, _ y: Int) -> Int {
        let p = buffers[plane] + YUVTestFrame.guardBytes + y * strides[plane]
        return encoding.bytesPerSample == 1 ? Int(p.load(fromByteOffset: x, as: UInt8.self))
            : Int(p.load(fromByteOffset: 2 * x, as: UInt16.self))
    }

    /// Every sample of a plane, row by row.
    func values(_ plane: Int) -> [Int] {
        let (w, h) = sizes[plane], base = buffers[plane] + YUVTestFrame.guardBytes, stride = strides[plane]
        var values = [Int](repeating: 0, count: w * h)
        values.withUnsafeMutableBufferPointer { out in
            for y in 0..<h {
                let row = base + y * stride
                for x in 0..<w {
                    out[y * w + x] = encoding.bytesPerSample == 1 ? Int(row.load(fromByteOffset: x, as: UInt8.self))
                        : Int(row.load(fromByteOffset: 2 * x, as: UInt16.self))
                }
            }
        }
        return values
    }

    func setSample(_ plane: Int, _ x: Int, _ y: Int, _ value: Int) {
        let p = buffers[plane] + YUVTestFrame.guardBytes + y * strides[plane]
        if encoding.bytesPerSample == 1 { p.storeBytes(of: UInt8(value), toByteOffset: x, as: UInt8.self) }
        else { p.storeBytes(of: UInt16(value), toByteOffset: 2 * x, as: UInt16.self) }
    }

    /// True when the guards and the row padding still hold their pattern.
    var outsideIsIntact: Bool {
        for plane in 0..<3 {
            let bytes = buffers[plane].assumingMemoryBound(to: UInt8.self), g = YUVTestFrame.guardBytes
            let rowBytes = sizes[plane].width * encoding.bytesPerSample
            for i in 0..<g where bytes[i] != YUVTestFrame.guardValue || bytes[byteCounts[plane] - 1 - i] != YUVTestFrame.guardValue {
                return false
            }
            for y in 0..<sizes[plane].height {
                for i in rowBytes..<strides[plane] where bytes[g + y * strides[plane] + i] != YUVTestFrame.guardValue { return false }
            }
        }
        return true
    }

    func copy() -> YUVTestFrame {
        let frame = YUVTestFrame(width: width, height: height, subsampling: subsampling, encoding: encoding)
        for plane in 0..<3 { frame.buffers[plane].copyMemory(from: buffers[plane], byteCount: byteCounts[plane]) }
        return frame
    }

    /// One step of the 8-bit scale in this bit depth.
    var unit: Int { 1 << (encoding.bitDepth - 8) }

    /// Deterministic noise that stays inside the RGB gamut however luma and chroma combine: luma
    /// 60-190 and chroma 108-148 (8-bit scale), so the BGRA reference never clips.
    static func noise(width: Int, height: Int, subsampling: ChromaSubsampling = .yuv420, encoding: YUVEncoding,
                      seed: UInt32 = 11) -> YUVTestFrame {
        let frame = YUVTestFrame(width: width, height: height, subsampling: subsampling, encoding: encoding)
        var state = seed
        func next(_ range: Int) -> Int {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int(state >> 8) % range
        }
        for plane in 0..<3 {
            for y in 0..<frame.sizes[plane].height {
                for x in 0..<frame.sizes[plane].width {
                    let value = plane == 0 ? 60 * frame.unit + next(130 * frame.unit) : 108 * frame.unit + next(40 * frame.unit)
                    frame.setSample(plane, x, y, value)
                }
            }
        }
        return frame
    }

    // MARK: Reference conversions (the standards' formulas and weights, written out again here)

    private var weights: (kr: Double, kb: Double) {
        switch encoding.matrix {
        case .bt601: return (0.299, 0.114)
        case .bt709: return (0.2126, 0.0722)
        case .bt2020: return (0.2627, 0.0593)
        case .smpte240m: return (0.212, 0.087)
        case .fcc: return (0.30, 0.11)
        }
    }

    /// Normalised Y' (0...1) and Pb, Pr (−0.5...0.5) of sample values.
    private func normalised(_ y: Double, _ cb: Double, _ cr: Double) -> (Double, Double, Double) {
        let maxValue = Double((1 << encoding.bitDepth) - 1), u = Double(unit)
        switch encoding.range {
        case .limited: return ((y / u - 16) / 219, (cb / u - 128) / 224, (cr / u - 128) / 224)
        case .full:
            let middle = Double(1 << (encoding.bitDepth - 1))
            return (y / maxValue, (cb - middle) / maxValue, (cr - middle) / maxValue)
        }
    }

    /// Sample values (unrounded) of an 8-bit RGB pixel.
    func samples(r: Int, g: Int, b: Int) -> (Double, Double, Double) {
        let (kr, kb) = weights
        let red = Double(r) / 255, green = Double(g) / 255, blue = Double(b) / 255
        let y = kr * red + (1 - kr - kb) * green + kb * blue
        let pb = (blue - y) / (2 - 2 * kb), pr = (red - y) / (2 - 2 * kr)
        let maxValue = Double((1 << encoding.bitDepth) - 1), u = Double(unit)
        switch encoding.range {
        case .limited: return ((16 + 219 * y) * u, (128 + 224 * pb) * u, (128 + 224 * pr) * u)
        case .full:
            let middle = Double(1 << (encoding.bitDepth - 1))
            return (y * maxValue, middle + pb * maxValue, middle + pr * maxValue)
        }
    }

    /// The frame as BGRA, each pixel showing its chroma sample (nearest neighbour); made once,
    /// so do not change the frame after asking.
    private(set) lazy var bgra: BGRAImage = makeBGRA()

    private func makeBGRA() -> BGRAImage {
        let image = BGRAImage(width: width, height: height)
        let (kr, kb) = weights
        let luma = values(0), cb = values(1), cr = values(2), cw = sizes[1].width
        for y in 0..<height {
            for x in 0..<width {
                let c = (y >> subsampling.shiftY) * cw + (x >> subsampling.shiftX)
                let (l, pb, pr) = normalised(Double(luma[y * width + x]), Double(cb[c]), Double(cr[c]))
                let r = l + (2 - 2 * kr) * pr, b = l + (2 - 2 * kb) * pb
                let g = (l - kr * r - kb * b) / (1 - kr - kb)
                func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, (v * 255).rounded()))) }
                image.setPixel(x: x, y: y, b: byte(b), g: byte(g), r: byte(r))
            }
        }
        return image
    }

    /// For a frame made by `converted(from:)`: the unrounded Cb and Cr of every pixel of the BGRA
    /// image, before chroma was averaged over footprints.
    private(set) var pixelChroma: (cb: [Double], cr: [Double]) = ([], [])

    /// A frame like this one holding `image` converted back: luma per pixel, chroma the mean of
    /// its footprint's pixels (those inside the frame).
    func converted(from image: BGRAImage) -> YUVTestFrame {
        let frame = YUVTestFrame(width: width, height: height, subsampling: subsampling, encoding: encoding)
        frame.pixelChroma = ([Double](repeating: 0, count: width * height), [Double](repeating: 0, count: width * height))
        let maxValue = Double((1 << encoding.bitDepth) - 1)
        func clamp(_ v: Double) -> Int { Int(min(maxValue, max(0, v.rounded()))) }
        var sums = [Double](repeating: 0, count: 3 * sizes[1].width * sizes[1].height)
        for y in 0..<height {
            for x in 0..<width {
                let p = image.pixel(x: x, y: y)
                let (l, cb, cr) = samples(r: Int(p.r), g: Int(p.g), b: Int(p.b))
                frame.setSample(0, x, y, clamp(l))
                frame.pixelChroma.cb[y * width + x] = cb
                frame.pixelChroma.cr[y * width + x] = cr
                let i = 3 * ((y >> subsampling.shiftY) * sizes[1].width + (x >> subsampling.shiftX))
                sums[i] += cb
                sums[i + 1] += cr
                sums[i + 2] += 1
            }
        }
        for cy in 0..<sizes[1].height {
            for cx in 0..<sizes[1].width {
                let i = 3 * (cy * sizes[1].width + cx)
                frame.setSample(1, cx, cy, clamp(sums[i] / sums[i + 2]))
                frame.setSample(2, cx, cy, clamp(sums[i + 1] / sums[i + 2]))
            }
        }
        return frame
    }
}
