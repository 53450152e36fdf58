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

    /// The widest window for which `narrowVerticalPass` rounds exactly enough (a uniform area
    /// keeps its value) and its 16-bit sums cannot overflow.
    static let maxNarrowWindow = 127

    /// `verticalPass` with 16-bit sums and a 16-bit reciprocal, twice as many lanes per vector
    /// instruction; for windows up to `maxNarrowWindow` (faces up to about 500 pixels).
    private static func narrowVerticalPass(_ src: UnsafeMutablePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                                           stride: Int, rows h: Int, radius r: Int,
                                           sums: UnsafeMutablePointer<UInt16>) {
        // (sum + window/2) · ceil(2^16 / window) / 2^16 is round(sum / window) up to a small error
        // that stays below one level for windows under 128.
        let window = 2 * r + 1
        let inv = UInt16((65536 + window - 1) / window), bias = UInt16(window / 2)
        let last = h - 1, first = UInt16(r + 1)
        for i in 0..<stride { sums[i] = first &* UInt16(src[i]) }
        for k in 1...r {
            let row = src + min(k, last) * stride
            for i in 0..<stride { sums[i] &+= UInt16(row[i]) }
        }
        for y in 0..<h {
            let out = dst + y * stride
            for i in 0..<stride { out[i] = UInt8(truncatingIfNeeded: (UInt32(sums[i] &+ bias) &* UInt32(inv)) >> 16) }
            let add = src + min(y + r + 1, last) * stride, sub = src + max(y - r, 0) * stride
            for i in 0..<stride { sums[i] = sums[i] &+ UInt16(add[i]) &- UInt16(sub[i]) }
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
