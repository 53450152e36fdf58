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
    /// Fixed-point shift of the reciprocal of the window size.
    private static let shift: Int32 = 20

    /// Blurs `region` (inside the frame) with box radius `radius` and writes the result back to
    /// the pixels of `region` that `mask` covers. Alpha is left as it was.
    static func blur(_ image: BGRAImage, region: PixelRect, radius: Int, mask: EllipseMask) {
        let w = region.width, h = region.height
        guard w > 0, h > 0 else { return }
        // A window wider than the region only repeats edge pixels; the cap keeps the fixed-point
        // reciprocal precise.
        let r = max(1, min(radius, max(w, h), 2048))
        let count = w * h
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * count) { buffer in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * max(w, h)) { sums in
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

    /// Runs `passes` vertical box passes over `rows` rows of `width` pixels, ping-ponging between
    /// `first` (the input) and `second`; returns the buffer holding the result.
    private static func blurColumns(_ first: UnsafeMutablePointer<UInt32>, _ second: UnsafeMutablePointer<UInt32>,
                                    width: Int, rows: Int, radius: Int,
                                    sums: UnsafeMutablePointer<Int32>) -> UnsafeMutablePointer<UInt32> {
        var src = first, dst = second
        let stride = width * 4
        for _ in 0..<passes {
            let from = UnsafeMutableRawPointer(src).assumingMemoryBound(to: UInt8.self)
            let to = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: UInt8.self)
            if 2 * radius + 1 <= maxNarrowWindow {
                sums.withMemoryRebound(to: UInt16.self, capacity: stride) { narrow in
                    narrowVerticalPass(from, into: to, stride: stride, rows: rows, radius: radius, sums: narrow)
                }
            } else {
                verticalPass(from, into: to, stride: stride, rows: rows, radius: radius, sums: sums)
            }
            swap(&src, &dst)
        }
        return src
    }

    /// The widest window for which `narrowVerticalPass`'s 16-bit sums plus rounding cannot overflow.
    static let maxNarrowWindow = 255
    /// The widest window for which the quick division in `narrowVerticalPass` is exact enough: it
    /// may round up by one level on a non-uniform area, never on a uniform one.
    static let maxQuickDivisionWindow = 127

    /// `verticalPass` with 16-bit sums and 16-bit division, twice as many lanes per vector
    /// instruction; for windows up to `maxNarrowWindow` (faces up to about 1000 pixels).
    private static func narrowVerticalPass(_ src: UnsafeMutablePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                                           stride: Int, rows h: Int, radius r: Int,
                                           sums: UnsafeMutablePointer<UInt16>) {
        // round(sum / window) = floor((sum + window/2) / window), as the high half of a multiply by
        // a 16-bit reciprocal. Rounded up, the reciprocal is exact on uniform areas for windows up
        // to 127; above that it is rounded down, which gives the quotient or one less, and the
        // remainder tells which.
        let window = UInt16(2 * r + 1), quick = Int(window) <= maxQuickDivisionWindow
        let inv = UInt16(quick ? (65536 + Int(window) - 1) / Int(window) : 65536 / Int(window)), bias = window / 2
        let last = h - 1, first = UInt16(r + 1)
        for i in 0..<stride { sums[i] = first &* UInt16(src[i]) }
        for k in 1...r {
            let row = src + min(k, last) * stride
            for i in 0..<stride { sums[i] &+= UInt16(row[i]) }
        }
        for y in 0..<h {
            let out = dst + y * stride
            if quick { quickDivide(sums, into: out, count: stride, bias: bias, inverse: inv) }
            else { exactDivide(sums, into: out, count: stride, window: window, inverse: inv) }
            let add = src + min(y + r + 1, last) * stride, sub = src + max(y - r, 0) * stride
            for i in 0..<stride { sums[i] = sums[i] &+ UInt16(add[i]) &- UInt16(sub[i]) }
        }
    }

    /// out = (sum + bias) · inverse / 2^16, the high half of a 16-bit multiply. Kept out of line:
    /// inlined into the pass, the vectoriser widens the multiply to 32 bits (no `pmulhuw`) and
    /// the blur runs twice as slowly.
    @inline(never)
    private static func quickDivide(_ sums: UnsafeMutablePointer<UInt16>, into out: UnsafeMutablePointer<UInt8>,
                                    count: Int, bias: UInt16, inverse: UInt16) {
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: (UInt32(sums[i] &+ bias) &* UInt32(inverse)) >> 16) }
    }

    /// out = round(sum / window) exactly, with `inverse` = floor(2^16 / window).
    @inline(never)
    private static func exactDivide(_ sums: UnsafeMutablePointer<UInt16>, into out: UnsafeMutablePointer<UInt8>,
                                    count: Int, window: UInt16, inverse: UInt16) {
        let bias = window / 2
        for i in 0..<count {
            let n = sums[i] &+ bias
            let q = UInt16(truncatingIfNeeded: (UInt32(n) &* UInt32(inverse)) >> 16)
            out[i] = UInt8(truncatingIfNeeded: n &- q &* window >= window ? q &+ 1 : q)
        }
    }

    /// One vertical box pass over `rows` rows of `stride` bytes, keeping a running sum per byte
    /// column, with edge rows repeated beyond the ends.
    private static func verticalPass(_ src: UnsafeMutablePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                                     stride: Int, rows h: Int, radius r: Int, sums: UnsafeMutablePointer<Int32>) {
        // Division by the window size as a multiplication by its reciprocal in 1/2^20.
        let window = 2 * r + 1
        let inv = Int32(((1 << shift) + window / 2) / window), half: Int32 = 1 << (shift - 1)
        let last = h - 1, first = Int32(r + 1)
        for i in 0..<stride { sums[i] = first &* Int32(src[i]) }
        for k in 1...r {
            let row = src + min(k, last) * stride
            for i in 0..<stride { sums[i] &+= Int32(row[i]) }
        }
        for y in 0..<h {
            let out = dst + y * stride
            for i in 0..<stride { out[i] = UInt8(truncatingIfNeeded: (sums[i] &* inv &+ half) >> shift) }
            let add = src + min(y + r + 1, last) * stride, sub = src + max(y - r, 0) * stride
            for i in 0..<stride { sums[i] &+= Int32(add[i]) &- Int32(sub[i]) }
        }
    }
}
