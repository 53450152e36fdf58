import Foundation

/// An 8-bit BGRA image in memory, rows top to bottom, 4 bytes a pixel (B, G, R, A).
///
/// An image either owns its pixel memory or wraps memory the caller owns (`init(wrapping:...)`,
/// no copy). `@unchecked Sendable`: the pipeline hands an image from stage to stage and only one
/// stage uses it at a time.
public final class BGRAImage: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next (at least `width * 4`, rounded up to 64 for SIMD).
    public let bytesPerRow: Int
    /// The first byte of the first row.
    public let pixels: UnsafeMutablePointer<UInt8>

    private var downscaleCache: [Int: BGRAImage] = [:]
    private let ownsPixels: Bool

    /// Allocates a zeroed (transparent black) image. Sizes below 1 are allowed and give an empty image.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        bytesPerRow = (self.width * 4 + 63) & ~63
        let count = max(64, bytesPerRow * self.height)
        // posix_memalign, not Swift's allocate (which traps): a picture that does not fit in memory
        // ends the run with one line (`OutOfMemory`).
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, 64, count) == 0, let raw = memory else {
            OutOfMemory.fail("a \(self.width) x \(self.height) picture (\(count >> 20) MB)")
        }
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        pixels = raw.assumingMemoryBound(to: UInt8.self)
        ownsPixels = true
    }

    /// Wraps BGRA pixels the caller owns (a camera or decoder buffer), without copying. The
    /// memory must hold `height` rows of `bytesPerRow` bytes (at least `width * 4`), stay valid
    /// while the image is used and is never freed by it. Returns `nil` for impossible sizes.
    public init?(wrapping pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        guard width > 0, height > 0, bytesPerRow >= width * 4 else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
        ownsPixels = false
    }

    deinit {
        if ownsPixels { free(pixels) }
    }

    /// True when the image has no pixels.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The first byte of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { pixels + y * bytesPerRow }

    /// Reads one pixel as (b, g, r, a).
    public func pixel(x: Int, y: Int) -> (b: UInt8, g: UInt8, r: UInt8, a: UInt8) {
        let p = row(y) + x * 4
        return (p[0], p[1], p[2], p[3])
    }

    /// Writes one pixel.
    public func setPixel(x: Int, y: Int, b: UInt8, g: UInt8, r: UInt8, a: UInt8 = 255) {
        let p = row(y) + x * 4
        p[0] = b; p[1] = g; p[2] = r; p[3] = a
    }

    /// Fills the whole image with one colour.
    public func fill(b: UInt8, g: UInt8, r: UInt8, a: UInt8 = 255) {
        let value = UInt32(b) | UInt32(g) << 8 | UInt32(r) << 16 | UInt32(a) << 24
        for y in 0..<height {
            let p = UnsafeMutableRawPointer(row(y)).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { p[x] = value }
        }
        contentsDidChange()
    }

    /// A deep copy.
    public func copy() -> BGRAImage {
        let image = BGRAImage(width: width, height: height)
        for y in 0..<height { image.row(y).update(from: row(y), count: width * 4) }
        return image
    }

    /// Copies `image` into this one with its top-left corner at (`x`, `y`); parts falling outside
    /// are left out.
    package func paste(_ image: BGRAImage, x: Int, y: Int) {
        let x0 = max(0, x), x1 = min(width, x + image.width)
        guard x1 > x0 else { return }
        for ty in max(0, y)..<max(max(0, y), min(height, y + image.height)) {
            row(ty).advanced(by: x0 * 4).update(from: image.row(ty - y).advanced(by: (x0 - x) * 4), count: (x1 - x0) * 4)
        }
        contentsDidChange()
    }

    /// Forgets the cached downscaled views; call after writing pixels.
    public func contentsDidChange() {
        if !downscaleCache.isEmpty { downscaleCache.removeAll(keepingCapacity: true) }
    }

    /// A view shrunk by an integer factor (each output pixel averages a `factor` x `factor` block),
    /// computed once and cached until `contentsDidChange()`. Detectors that work on small inputs
    /// use it to avoid sampling the full frame. A factor of 1 returns the image itself.
    public func downscaled(by factor: Int) -> BGRAImage {
        guard factor > 1 else { return self }
        if let cached = downscaleCache[factor] { return cached }
        let out = BGRAImage(width: width / factor, height: height / factor)
        let area = UInt32(factor * factor)
        var sums = [UInt32](repeating: 0, count: out.width * 4)
        for oy in 0..<out.height {
            for i in sums.indices { sums[i] = 0 }
            for dy in 0..<factor {
                let src = row(oy * factor + dy)
                for ox in 0..<out.width {
                    var p = src + ox * factor * 4
                    for _ in 0..<factor {
                        sums[ox * 4] += UInt32(p[0]); sums[ox * 4 + 1] += UInt32(p[1])
                        sums[ox * 4 + 2] += UInt32(p[2]); sums[ox * 4 + 3] += UInt32(p[3])
                        p += 4
                    }
                }
            }
            let dst = out.row(oy)
            for i in 0..<(out.width * 4) { dst[i] = UInt8((sums[i] + area / 2) / area) }
        }
        downscaleCache[factor] = out
        return out
    }
}

extension BGRAImage {
    /// Fills `target` with `region` of this image (frame pixels; parts outside the image repeat
    /// its edge pixels): bilinear when enlarging or shrinking less than twice, the mean of a block
    /// of source pixels per target pixel when shrinking more, so small targets do not alias.
    public func resample(_ region: Rect, into target: BGRAImage) {
        guard !isEmpty, !target.isEmpty, region.isValid else { return }
        let stepX = region.width / Double(target.width), stepY = region.height / Double(target.height)
        let block = max(1, Int(min(stepX, stepY)))
        // Per target column: the source byte offsets and the weight (of 256) of the right one.
        var left = [Int](repeating: 0, count: target.width), right = left, weight = left
        for tx in 0..<target.width {
            let sx = region.x + (Double(tx) + 0.5) * stepX - 0.5
            let x0 = block >= 2 ? Int((sx - Double(block - 1) / 2).rounded()) : Int(sx.rounded(.down))
            left[tx] = x0
            right[tx] = min(max(x0 + 1, 0), width - 1) * 4
            weight[tx] = block >= 2 ? 0 : Int(((sx - Double(x0)) * 256).rounded())
            if block < 2 { left[tx] = min(max(x0, 0), width - 1) * 4 }
        }
        for ty in 0..<target.height {
            let out = target.row(ty)
            let sy = region.y + (Double(ty) + 0.5) * stepY - 0.5
            if block >= 2 {
                let y0 = Int((sy - Double(block - 1) / 2).rounded())
                meanOfBlocks(rows: y0..<(y0 + block), columns: left, side: block, into: out, count: target.width)
            } else {
                let y0 = Int(sy.rounded(.down))
                let wy = Int(((sy - Double(y0)) * 256).rounded())
                let top = clampedRow(y0), bottom = clampedRow(y0 + 1)
                for tx in 0..<target.width {
                    let l = left[tx], r = right[tx], wx = weight[tx]
                    for c in 0..<4 {
                        let upper = Int(top[l + c]) * (256 - wx) + Int(top[r + c]) * wx
                        let lower = Int(bottom[l + c]) * (256 - wx) + Int(bottom[r + c]) * wx
                        out[tx * 4 + c] = UInt8((upper * (256 - wy) + lower * wy + 32768) >> 16)
                    }
                }
            }
        }
        target.contentsDidChange()
    }

    @inline(__always)
    private func clampedRow(_ y: Int) -> UnsafeMutablePointer<UInt8> { row(min(max(y, 0), height - 1)) }

    /// One target row of block means: for each column, the mean of the `side` x `side` source
    /// pixels from column `columns[i]` over `rows`.
    private func meanOfBlocks(rows: Range<Int>, columns: [Int], side: Int, into out: UnsafeMutablePointer<UInt8>, count: Int) {
        let area = UInt32(side * side)
        for tx in 0..<count {
            var b: UInt32 = 0, g: UInt32 = 0, r: UInt32 = 0, a: UInt32 = 0
            for y in rows {
                let line = clampedRow(y)
                for x in columns[tx]..<(columns[tx] + side) {
                    let p = line + min(max(x, 0), width - 1) * 4
                    b += UInt32(p[0]); g += UInt32(p[1]); r += UInt32(p[2]); a += UInt32(p[3])
                }
            }
            let o = out + tx * 4
            o[0] = UInt8((b + area / 2) / area); o[1] = UInt8((g + area / 2) / area)
            o[2] = UInt8((r + area / 2) / area); o[3] = UInt8((a + area / 2) / area)
        }
    }
}
