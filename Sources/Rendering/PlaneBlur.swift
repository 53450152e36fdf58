import FaceCore
/// The strong blur of `BoxBlur` (three box passes each way, edges repeated) for a rectangle of one
/// plane, with its own radius per direction (chroma planes are subsampled along one axis or two).
/// 8-bit planes use `BoxBlur`'s 16-bit running sums; deeper samples need 32-bit sums.
enum PlaneBlur {
    /// Blurs `region` of `plane` (inside it) with box radii `radiusX` and `radiusY`, each capped as
    /// in `BoxBlur` (at least 1, at most the region's longer side and `BoxBlur.maxRadius`), and
    /// calls `body` with the result column by column: (x, y) is at `(x − region.x0) · height + (y − region.y0)`.
    static func withBlurred<Sample: PlaneSample>(_ plane: Plane<Sample>, region: PixelRect, radiusX: Int, radiusY: Int,
                                                 _ body: (UnsafePointer<Sample>) -> Void) {
        let w = region.width, h = region.height
        guard w > 0, h > 0 else { return }
        let limit = min(max(w, h), BoxBlur.maxRadius)
        let rx = max(1, min(radiusX, limit)), ry = max(1, min(radiusY, limit))
        let count = w * h
        withUnsafeTemporaryAllocation(of: Sample.self, capacity: 2 * count) { buffer in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: max(w, h)) { sums in
                guard let a = buffer.baseAddress, let columnSums = sums.baseAddress else { return }
                let b = a + count
                for y in 0..<h { (a + y * w).update(from: plane.row(region.y0 + y) + region.x0, count: w) }
                // Vertical passes on the region (w wide), then on its transpose (h wide).
                let vertical = blurColumns(a, b, width: w, rows: h, radius: ry, sums: columnSums)
                let transposed = vertical == a ? b : a
                for y in 0..<h {
                    for x in 0..<w { transposed[x * h + y] = vertical[y * w + x] }
                }
                body(blurColumns(transposed, vertical, width: h, rows: w, radius: rx, sums: columnSums))
            }
        }
    }

    /// `BoxBlur.passes` vertical passes over `rows` rows of `width` samples, ping-ponging between
    /// `first` (the input) and `second`; returns the buffer holding the result. `sums` holds
    /// `width` 32-bit values (8-bit samples use them as twice as many 16-bit ones).
    private static func blurColumns<Sample: PlaneSample>(_ first: UnsafeMutablePointer<Sample>,
                                                         _ second: UnsafeMutablePointer<Sample>,
                                                         width: Int, rows: Int, radius: Int,
                                                         sums: UnsafeMutablePointer<UInt32>) -> UnsafeMutablePointer<Sample> {
        let a = UnsafeMutableRawPointer(first), b = UnsafeMutableRawPointer(second)
        let result: UnsafeMutableRawPointer
        if Sample.self == UInt8.self {
            result = UnsafeMutableRawPointer(BoxBlur.blurByteColumns(
                a.assumingMemoryBound(to: UInt8.self), b.assumingMemoryBound(to: UInt8.self), rowBytes: width, rows: rows,
                radius: radius, sums: UnsafeMutableRawPointer(sums).assumingMemoryBound(to: UInt16.self)))
        } else {
            result = UnsafeMutableRawPointer(blurWordColumns(
                a.assumingMemoryBound(to: UInt16.self), b.assumingMemoryBound(to: UInt16.self), width: width, rows: rows,
                radius: radius, sums: sums))
        }
        return result.assumingMemoryBound(to: Sample.self)
    }

    /// The passes for 16-bit samples: running sums per column in 32 bits, rounded division by the
    /// window through a 32-bit fixed-point reciprocal (exact: sums stay below 2^24 and the window
    /// below 256).
    private static func blurWordColumns(_ first: UnsafeMutablePointer<UInt16>, _ second: UnsafeMutablePointer<UInt16>,
                                        width: Int, rows h: Int, radius r: Int,
                                        sums: UnsafeMutablePointer<UInt32>) -> UnsafeMutablePointer<UInt16> {
        var src = first, dst = second
        let window = UInt64(2 * r + 1), bias = UInt32(r), last = h - 1
        let inverse = ((1 << 32) + window - 1) / window
        for _ in 0..<BoxBlur.passes {
            for i in 0..<width { sums[i] = UInt32(r + 1) * UInt32(src[i]) }
            for k in 1...r {
                let row = src + min(k, last) * width
                for i in 0..<width { sums[i] += UInt32(row[i]) }
            }
            for y in 0..<h {
                let out = dst + y * width
                for i in 0..<width { out[i] = UInt16(truncatingIfNeeded: (UInt64(sums[i] + bias) &* inverse) >> 32) }
                let add = src + min(y + r + 1, last) * width, sub = src + max(y - r, 0) * width
                for i in 0..<width { sums[i] = sums[i] &+ UInt32(add[i]) &- UInt32(sub[i]) }
            }
            swap(&src, &dst)
        }
        return src
    }
}
