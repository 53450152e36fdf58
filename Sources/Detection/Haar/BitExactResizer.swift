/// Bilinear resizing of 8-bit grey images that reproduces OpenCV's `INTER_LINEAR_EXACT` bit for bit,
/// which is what `CascadeClassifier::detectMultiScale` uses to build its pyramid.
///
/// Source positions are `(d + 0.5) * src / dst - 0.5` in double precision; the fractional weight is
/// rounded to 8 bits (half to even), rows are interpolated horizontally into 8.8 fixed point, then
/// vertically into 16.16 and rounded to 8 bits. Positions left of the first pixel or beyond the last
/// take the edge pixel.
enum BitExactResizer {
    /// Per output column (or row): the two source indices and their 8-bit weights.
    struct Taps {
        var first: [Int32] = []
        var second: [Int32] = []
        var weightFirst: [UInt32] = []
        var weightSecond: [UInt32] = []

        mutating func compute(source: Int, destination: Int) {
            first = [Int32](repeating: 0, count: destination)
            second = [Int32](repeating: 0, count: destination)
            weightFirst = [UInt32](repeating: 256, count: destination)
            weightSecond = [UInt32](repeating: 0, count: destination)
            guard source > 0, destination > 0 else { return }
            let inverseScale = Double(destination) / Double(source)
            let scale = 1.0 / inverseScale
            for d in 0..<destination {
                let position = scale * (Double(d) + 0.5) - 0.5
                let index = Int(position.rounded(.down))
                if index >= 0 && source > 1 {
                    if index < source - 1 {
                        let fraction = ((position - Double(index)) * 256).rounded(.toNearestOrEven)
                        first[d] = Int32(index)
                        second[d] = Int32(index + 1)
                        weightSecond[d] = UInt32(fraction)
                        weightFirst[d] = 256 - UInt32(fraction)
                    } else {
                        first[d] = Int32(source - 1)
                        second[d] = Int32(source - 1)
                    }
                }
            }
        }
    }

    /// Resizes `source` (`sourceWidth` x `sourceHeight`, packed rows) into `destination`
    /// (`columns.first.count` x `rows.first.count`, packed rows). `rowA`/`rowB` are scratch rows of
    /// the destination width.
    static func resize(source: UnsafePointer<UInt8>, sourceWidth: Int, destination: UnsafeMutablePointer<UInt8>,
                       columns: Taps, rows: Taps, rowA: UnsafeMutablePointer<UInt32>, rowB: UnsafeMutablePointer<UInt32>) {
        let width = columns.first.count, height = rows.first.count
        columns.first.withUnsafeBufferPointer { c0 in
        columns.second.withUnsafeBufferPointer { c1 in
        columns.weightFirst.withUnsafeBufferPointer { w0 in
        columns.weightSecond.withUnsafeBufferPointer { w1 in
            func horizontal(_ sourceRow: Int, into out: UnsafeMutablePointer<UInt32>) {
                let src = source + sourceRow * sourceWidth
                for x in 0..<width {
                    out[x] = UInt32(src[Int(c0[x])]) &* w0[x] &+ UInt32(src[Int(c1[x])]) &* w1[x]
                }
            }
            for y in 0..<height {
                horizontal(Int(rows.first[y]), into: rowA)
                let dst = destination + y * width
                let v0 = rows.weightFirst[y], v1 = rows.weightSecond[y]
                if v1 == 0 {
                    for x in 0..<width { dst[x] = UInt8(truncatingIfNeeded: (rowA[x] &* v0 &+ 32768) >> 16) }
                } else {
                    horizontal(Int(rows.second[y]), into: rowB)
                    for x in 0..<width {
                        dst[x] = UInt8(truncatingIfNeeded: (rowA[x] &* v0 &+ rowB[x] &* v1 &+ 32768) >> 16)
                    }
                }
            }
        }}}}
    }
}
