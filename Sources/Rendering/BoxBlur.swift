import FaceCore

/// A strong blur of one rectangle of the frame: a separable box blur run three times each way,
/// which approximates a Gaussian. Samples beyond the rectangle repeat its edge pixels, so the
/// work stays proportional to the rectangle, not the frame.
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
        let stride = w * 4, count = stride * h
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * count) { buffer in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: stride) { sums in
                guard let a = buffer.baseAddress, let columnSums = sums.baseAddress else { return }
                let b = a + count
                for y in 0..<h {
                    (a + y * stride).update(from: image.row(region.y0 + y) + region.x0 * 4, count: stride)
                }
                // Horizontal passes a → b → a → b, then vertical passes b → a → b → a.
                for y in 0..<h {
                    let rowA = a + y * stride, rowB = b + y * stride
                    for pass in 0..<passes {
                        if pass % 2 == 0 { blurRow(rowA, into: rowB, count: w, radius: r) }
                        else { blurRow(rowB, into: rowA, count: w, radius: r) }
                    }
                }
                for pass in 0..<passes {
                    if pass % 2 == 0 { blurColumns(b, into: a, stride: stride, rows: h, radius: r, sums: columnSums) }
                    else { blurColumns(a, into: b, stride: stride, rows: h, radius: r, sums: columnSums) }
                }
                let result = passes % 2 == 1 ? a : b
                for y in region.y0..<region.y1 {
                    guard let span = mask.span(row: y, within: region) else { continue }
                    let src = result + (y - region.y0) * stride, dst = image.row(y)
                    for x in span.lo..<span.hi {
                        let s = src + (x - region.x0) * 4, d = dst + x * 4
                        d[0] = s[0]; d[1] = s[1]; d[2] = s[2]
                    }
                }
            }
        }
    }

    /// The reciprocal of `window` in 1/2^20, for division by multiplication.
    @inline(__always)
    private static func reciprocal(_ window: Int) -> Int32 { Int32(((1 << shift) + window / 2) / window) }

    /// One horizontal box pass over a row of `count` BGRA pixels (B, G, R only).
    private static func blurRow(_ src: UnsafeMutablePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                                count n: Int, radius r: Int) {
        let inv = reciprocal(2 * r + 1), half: Int32 = 1 << (shift - 1)
        let last = n - 1
        var s0 = Int32(r + 1) * Int32(src[0]), s1 = Int32(r + 1) * Int32(src[1]), s2 = Int32(r + 1) * Int32(src[2])
        for k in 1...r {
            let p = src + min(k, last) * 4
            s0 += Int32(p[0]); s1 += Int32(p[1]); s2 += Int32(p[2])
        }
        for x in 0..<n {
            let d = dst + x * 4
            d[0] = UInt8(truncatingIfNeeded: (s0 &* inv &+ half) >> shift)
            d[1] = UInt8(truncatingIfNeeded: (s1 &* inv &+ half) >> shift)
            d[2] = UInt8(truncatingIfNeeded: (s2 &* inv &+ half) >> shift)
            d[3] = 255
            let add = src + min(x + r + 1, last) * 4, sub = src + max(x - r, 0) * 4
            s0 += Int32(add[0]) - Int32(sub[0])
            s1 += Int32(add[1]) - Int32(sub[1])
            s2 += Int32(add[2]) - Int32(sub[2])
        }
    }

    /// One vertical box pass over `rows` rows of `stride` bytes, keeping a running sum per byte
    /// column so memory is read row by row.
    private static func blurColumns(_ src: UnsafeMutablePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                                    stride: Int, rows h: Int, radius r: Int, sums: UnsafeMutablePointer<Int32>) {
        let inv = reciprocal(2 * r + 1), half: Int32 = 1 << (shift - 1)
        let last = h - 1
        for i in 0..<stride { sums[i] = Int32(r + 1) * Int32(src[i]) }
        for k in 1...r {
            let row = src + min(k, last) * stride
            for i in 0..<stride { sums[i] += Int32(row[i]) }
        }
        for y in 0..<h {
            let out = dst + y * stride
            for i in 0..<stride { out[i] = UInt8(truncatingIfNeeded: (sums[i] &* inv &+ half) >> shift) }
            let add = src + min(y + r + 1, last) * stride, sub = src + max(y - r, 0) * stride
            for i in 0..<stride { sums[i] += Int32(add[i]) - Int32(sub[i]) }
        }
    }
}
