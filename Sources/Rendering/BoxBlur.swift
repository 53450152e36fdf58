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
    /// Fixed-point shift of the reciprocal of wide windows.
    private static let wideShift: Int32 = 20

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

    /// The widest window for which 16-bit sums plus rounding cannot overflow (faces up to about
    /// 1000 pixels); wider windows use 32-bit sums.
    static let maxNarrowWindow = 255
    /// The widest window for which the quick 16-bit division is exact enough: it may round up by
    /// one level on a non-uniform area, never on a uniform one.
    static let maxQuickDivisionWindow = 127

    /// Runs `passes` vertical box passes over `rows` rows of `width` pixels, ping-ponging between
    /// `first` (the input) and `second`; returns the buffer holding the result.
    private static func blurColumns(_ first: UnsafeMutablePointer<UInt32>, _ second: UnsafeMutablePointer<UInt32>,
                                    width: Int, rows: Int, radius r: Int,
                                    sums: UnsafeMutablePointer<Int32>) -> UnsafeMutablePointer<UInt32> {
        var src = first, dst = second
        let stride = width * 4, window = 2 * r + 1
        for _ in 0..<passes {
            let from = UnsafeMutableRawPointer(src).assumingMemoryBound(to: UInt8.self)
            let to = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: UInt8.self)
            // round(sum / window) = floor((sum + window/2) / window), computed by multiplying with a
            // reciprocal. 16-bit sums and reciprocals give twice as many lanes per vector instruction.
            if window <= maxQuickDivisionWindow {
                // Rounded up, the 16-bit reciprocal is exact on uniform areas for these windows.
                let inverse = UInt16((65536 + window - 1) / window), bias = UInt16(window / 2)
                sums.withMemoryRebound(to: UInt16.self, capacity: stride) { narrow in
                    verticalPass(from, into: to, stride: stride, rows: rows, radius: r, sums: narrow) { out in
                        quickDivide(narrow, into: out, count: stride, bias: bias, inverse: inverse)
                    }
                }
            } else if window <= maxNarrowWindow {
                // Rounded down, it gives the quotient or one less, and the remainder tells which.
                let inverse = UInt16(65536 / window)
                sums.withMemoryRebound(to: UInt16.self, capacity: stride) { narrow in
                    verticalPass(from, into: to, stride: stride, rows: rows, radius: r, sums: narrow) { out in
                        exactDivide(narrow, into: out, count: stride, window: UInt16(window), inverse: inverse)
                    }
                }
            } else {
                let inverse = Int32(((1 << wideShift) + window / 2) / window)
                verticalPass(from, into: to, stride: stride, rows: rows, radius: r, sums: sums) { out in
                    wideDivide(sums, into: out, count: stride, inverse: inverse)
                }
            }
            swap(&src, &dst)
        }
        return src
    }

    /// One vertical box pass over `rows` rows of `stride` bytes, keeping a running sum per byte
    /// column, with edge rows repeated beyond the ends; `divide` turns the sums into one output row.
    @inline(__always)
    private static func verticalPass<Sum: FixedWidthInteger>(
        _ src: UnsafeMutablePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, stride: Int, rows h: Int,
        radius r: Int, sums: UnsafeMutablePointer<Sum>, divide: (UnsafeMutablePointer<UInt8>) -> Void
    ) {
        let last = h - 1, first = Sum(r + 1)
        for i in 0..<stride { sums[i] = first &* Sum(truncatingIfNeeded: src[i]) }
        for k in 1...r {
            let row = src + min(k, last) * stride
            for i in 0..<stride { sums[i] &+= Sum(truncatingIfNeeded: row[i]) }
        }
        for y in 0..<h {
            divide(dst + y * stride)
            let add = src + min(y + r + 1, last) * stride, sub = src + max(y - r, 0) * stride
            for i in 0..<stride { sums[i] = sums[i] &+ Sum(truncatingIfNeeded: add[i]) &- Sum(truncatingIfNeeded: sub[i]) }
        }
    }

    /// out = (sum + bias) · inverse / 2^16, the high half of a 16-bit multiply. The divisions are
    /// kept out of line: inlined into the pass, the vectoriser widens the multiply to 32 bits (no
    /// `pmulhuw`) and the blur runs twice as slowly.
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

    /// out = round(sum / window) with 32-bit sums and `inverse` = 2^20 / window.
    @inline(never)
    private static func wideDivide(_ sums: UnsafeMutablePointer<Int32>, into out: UnsafeMutablePointer<UInt8>,
                                   count: Int, inverse: Int32) {
        let half: Int32 = 1 << (wideShift - 1)
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: (sums[i] &* inverse &+ half) >> wideShift) }
    }
}
