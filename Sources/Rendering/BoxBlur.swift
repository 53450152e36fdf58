import FaceCore

/// A strong blur of one rectangle of the frame: a separable box blur run three times each way,
/// which approximates a Gaussian. Samples beyond the rectangle repeat its edge pixels, so the
/// work stays proportional to the rectangle, not the frame.
///
/// Both directions run as vertical passes (the horizontal ones on a transposed copy): a vertical
/// pass keeps one running sum per byte column and walks memory row by row, which vectorises,
/// while a horizontal running sum is one long dependency chain.
enum BoxBlur {
    /// How many box passes run in each direction.
    static let passes = 3

    /// Blurs `region` (inside the frame) with box radius `radius` and writes the result back to
    /// the pixels of `region` that `mask` covers. Alpha is left as it was.
    static func blur(_ image: BGRAImage, region: PixelRect, radius: Int, mask: EllipseMask) {
        let w = region.width, h = region.height
        guard w > 0, h > 0 else { return }
        // A window wider than the region only repeats edge pixels. Beyond radius 127 (faces over
        // about 1000 pixels) a stronger blur hides nothing more, and the cap keeps the sums 16-bit.
        let r = max(1, min(radius, max(w, h), maxRadius))
        let count = w * h
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * count) { buffer in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 4 * max(w, h)) { sums in
                guard let a = buffer.baseAddress, let columnSums = sums.baseAddress else { return }
                let b = a + count
                for y in 0..<h {
                    UnsafeMutableRawPointer(a + y * w)
                        .copyMemory(from: image.row(region.y0 + y) + region.x0 * 4, byteCount: w * 4)
                }
                // Vertical passes on the region (w wide), then on its transpose (h wide).
                let vertical = blurColumns(a, b, width: w, rows: h, radius: r, sums: columnSums)
                let transposed = vertical == a ? b : a
                for y in 0..<h {
                    for x in 0..<w { transposed[x * h + y] = vertical[y * w + x] }
                }
                let result = blurColumns(transposed, vertical, width: h, rows: w, radius: r, sums: columnSums)
                for y in region.y0..<region.y1 {
                    guard let span = mask.span(row: y, within: region) else { continue }
                    let column = result + (y - region.y0), dst = image.row(y)
                    for x in span.lo..<span.hi {
                        let value = column[(x - region.x0) * h], d = dst + x * 4
                        d[0] = UInt8(truncatingIfNeeded: value)
                        d[1] = UInt8(truncatingIfNeeded: value >> 8)
                        d[2] = UInt8(truncatingIfNeeded: value >> 16)
                    }
                }
            }
        }
    }

    /// The largest box radius: the window 2r + 1 = 255 is the widest for which 16-bit sums plus
    /// rounding cannot overflow.
    static let maxRadius = 127
    /// The widest window for which the quick division is exact enough: it may round up by one
    /// level on a non-uniform area, never on a uniform one.
    static let maxQuickDivisionWindow = 127

    /// Runs `passes` vertical box passes over `rows` rows of `width` pixels, ping-ponging between
    /// `first` (the input) and `second`; returns the buffer holding the result.
    private static func blurColumns(_ first: UnsafeMutablePointer<UInt32>, _ second: UnsafeMutablePointer<UInt32>,
                                    width: Int, rows: Int, radius r: Int,
                                    sums: UnsafeMutablePointer<UInt16>) -> UnsafeMutablePointer<UInt32> {
        let bytes = UnsafeMutableRawPointer(first).assumingMemoryBound(to: UInt8.self)
        let result = blurByteColumns(bytes, UnsafeMutableRawPointer(second).assumingMemoryBound(to: UInt8.self),
                                     rowBytes: width * 4, rows: rows, radius: r, sums: sums)
        return result == bytes ? first : second
    }

    /// Runs `passes` vertical box passes over `rows` rows of `rowBytes` independent byte columns
    /// (any interleaving of channels), ping-ponging between `first` (the input) and `second`;
    /// returns the buffer holding the result. `sums` holds `rowBytes` values; `r` is at most `maxRadius`.
    static func blurByteColumns(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                                rowBytes stride: Int, rows: Int, radius r: Int,
                                sums: UnsafeMutablePointer<UInt16>) -> UnsafeMutablePointer<UInt8> {
        var src = first, dst = second
        let window = 2 * r + 1
        // round(sum / window) = floor((sum + window/2) / window), by multiplying with a 16-bit
        // reciprocal: twice as many lanes per vector instruction as 32-bit arithmetic. Rounded up,
        // the reciprocal is exact on uniform areas for windows up to 127; rounded down, it gives
        // the quotient or one less, and the remainder tells which.
        let quick = window <= maxQuickDivisionWindow
        let inverse = UInt16(quick ? (65536 + window - 1) / window : 65536 / window)
        for _ in 0..<passes {
            verticalPass(src, into: dst, stride: stride, rows: rows, radius: r, sums: sums) { out in
                if quick { quickDivide(sums, into: out, count: stride, bias: UInt16(window / 2), inverse: inverse) }
                else { exactDivide(sums, into: out, count: stride, window: UInt16(window), inverse: inverse) }
            }
            swap(&src, &dst)
        }
        return src
    }

    /// One vertical box pass over `rows` rows of `stride` bytes, keeping a running sum per byte
    /// column, with edge rows repeated beyond the ends; `divide` turns the sums into one output row.
    private static func verticalPass(_ src: UnsafeMutablePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                                     stride: Int, rows h: Int, radius r: Int, sums: UnsafeMutablePointer<UInt16>,
                                     divide: (UnsafeMutablePointer<UInt8>) -> Void) {
        let last = h - 1, first = UInt16(r + 1)
        for i in 0..<stride { sums[i] = first &* UInt16(src[i]) }
        for k in 1...r {
            let row = src + min(k, last) * stride
            for i in 0..<stride { sums[i] &+= UInt16(row[i]) }
        }
        for y in 0..<h {
            divide(dst + y * stride)
            let add = src + min(y + r + 1, last) * stride, sub = src + max(y - r, 0) * stride
            for i in 0..<stride { sums[i] = sums[i] &+ UInt16(add[i]) &- UInt16(sub[i]) }
        }
    }

    /// out = (sum + bias) · inverse / 2^16, the high half of a 16-bit multiply. The divisions are
    /// kept out of line: inlined into the pass, the vectoriser widens the multiply to 32 bits (no
    /// `pmulhuw`) and the blur runs twice as slowly.
    @inline(never)
    static func quickDivide(_ sums: UnsafeMutablePointer<UInt16>, into out: UnsafeMutablePointer<UInt8>,
                                    count: Int, bias: UInt16, inverse: UInt16) {
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: (UInt32(sums[i] &+ bias) &* UInt32(inverse)) >> 16) }
    }

    /// out = round(sum / window) exactly, with `inverse` = floor(2^16 / window).
    @inline(never)
    static func exactDivide(_ sums: UnsafeMutablePointer<UInt16>, into out: UnsafeMutablePointer<UInt8>,
                                    count: Int, window: UInt16, inverse: UInt16) {
        let bias = window / 2
        for i in 0..<count {
            let n = sums[i] &+ bias
            let q = UInt16(truncatingIfNeeded: (UInt32(n) &* UInt32(inverse)) >> 16)
            out[i] = UInt8(truncatingIfNeeded: n &- q &* window >= window ? q &+ 1 : q)
        }
    }
}
