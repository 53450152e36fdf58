/// One level of the detection pyramid: the frame shrunk by `scale`, its integral images, and the
/// feature offsets for its row stride. Buffers are kept between frames of the same size.
/// `@unchecked Sendable`: scan workers share a level; one worker builds it, then all only read it.
final class CascadeLevel: @unchecked Sendable {
    /// The shrink factor (OpenCV keeps it as a float).
    let scale: Float
    /// Level image size: `round(frame / scale)`.
    let width: Int
    let height: Int
    /// Distance between window positions: 2 pixels while `scale < 2`, else 1 (as OpenCV).
    let step: Int
    /// Integral image row stride (`width + 1`).
    let stride: Int
    /// Window positions are `0..<workWidth` by `0..<workHeight`.
    let workWidth: Int
    let workHeight: Int
    /// Window size in frame pixels.
    let windowWidth: Int
    let windowHeight: Int

    /// The shrunk image.
    let image: UnsafeMutablePointer<UInt8>
    /// Sum integral, followed (when the cascade has tilted features) by the tilted integral.
    let sums: UnsafeMutablePointer<Int32>
    /// Squared-sum integral, 32-bit wrapping as in OpenCV (window sums stay exact).
    let squares: UnsafeMutablePointer<Int32>
    /// Per Haar feature 12 offsets (3 rects x 4 corners); per LBP feature the grid origin, cell width
    /// and cell height times the stride.
    let offsets: UnsafeMutablePointer<Int32>
    /// Offsets of the variance rectangle's corners.
    var normOffsets: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)

    private let columns: BitExactResizer.Taps
    private let rows: BitExactResizer.Taps
    private let scratch: UnsafeMutablePointer<UInt32>
    private let diagonals: UnsafeMutablePointer<Int32>
    private let area: Int
    private let tilted: Bool
    private let hasSquares: Bool

    init(scale: Float, frameWidth: Int, frameHeight: Int, model: CascadeModel) {
        self.scale = scale
        width = Int((Float(frameWidth) / scale).rounded(.toNearestOrEven))
        height = Int((Float(frameHeight) / scale).rounded(.toNearestOrEven))
        step = scale >= 2 ? 1 : 2
        stride = width + 1
        area = (width + 1) * (height + 1)
        workWidth = max(width + 1 - model.windowWidth, 0)
        workHeight = max(height + 1 - model.windowHeight, 0)
        windowWidth = Int((Float(model.windowWidth) * scale).rounded(.toNearestOrEven))
        windowHeight = Int((Float(model.windowHeight) * scale).rounded(.toNearestOrEven))
        tilted = model.hasTiltedFeatures
        image = .allocate(capacity: max(1, width * height))
        sums = .allocate(capacity: area * (tilted ? 2 : 1))
        hasSquares = model.featureType == .haar
        squares = .allocate(capacity: hasSquares ? area : 1)
        diagonals = .allocate(capacity: tilted ? 2 * width + 2 : 1)
        var c = BitExactResizer.Taps(), r = BitExactResizer.Taps()
        c.compute(source: frameWidth, destination: width)
        r.compute(source: frameHeight, destination: height)
        columns = c
        rows = r
        scratch = .allocate(capacity: max(1, 2 * width + 2))
        let perFeature = model.featureType == .haar ? 12 : 3
        let featureCount = model.featureType == .haar ? model.haarFeatures.count : model.lbpFeatures.count
        offsets = .allocate(capacity: max(1, perFeature * featureCount))
        computeOffsets(model: model)
    }

    deinit {
        image.deallocate(); sums.deallocate(); squares.deallocate(); offsets.deallocate(); scratch.deallocate()
        diagonals.deallocate()
    }

    private func computeOffsets(model: CascadeModel) {
        let s = stride
        func corners(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> [Int32] {
            [Int32(x + s * y), Int32(x + w + s * y), Int32(x + s * (y + h)), Int32(x + w + s * (y + h))]
        }
        let nw = model.windowWidth - 2, nh = model.windowHeight - 2
        let n = corners(1, 1, nw, nh)
        normOffsets = (n[0], n[1], n[2], n[3])
        if model.featureType == .haar {
            for (f, feature) in model.haarFeatures.enumerated() {
                for k in 0..<12 { offsets[f * 12 + k] = 0 }
                for (i, r) in feature.rects.enumerated() {
                    let o: [Int32]
                    if feature.tilted {
                        // Corners of a 45-degree rectangle on the tilted integral, which follows the sum integral.
                        let t = Int32(area)
                        o = [Int32(r.x + s * r.y) + t, Int32(r.x - r.height + s * (r.y + r.height)) + t,
                             Int32(r.x + r.width + s * (r.y + r.width)) + t,
                             Int32(r.x + r.width - r.height + s * (r.y + r.width + r.height)) + t]
                    } else {
                        o = corners(r.x, r.y, r.width, r.height)
                    }
                    for k in 0..<4 { offsets[f * 12 + i * 4 + k] = o[k] }
                }
            }
        } else {
            // Per LBP feature: the grid's top-left corner, the cell width, and the cell height in rows.
            for (f, feature) in model.lbpFeatures.enumerated() {
                offsets[f * 3] = Int32(feature.x + s * feature.y)
                offsets[f * 3 + 1] = Int32(feature.width)
                offsets[f * 3 + 2] = Int32(s * feature.height)
            }
        }
    }

    /// Shrinks `frame` into this level and computes the integral images.
    func build(from frame: UnsafePointer<UInt8>, frameWidth: Int) {
        BitExactResizer.resize(source: frame, sourceWidth: frameWidth, destination: image,
                               columns: columns, rows: rows, rowA: scratch, rowB: scratch + width + 1)
        computeIntegrals()
    }

    private func computeIntegrals() {
        let s = stride
        for x in 0..<s { sums[x] = 0 }
        if hasSquares {
            for x in 0..<s { squares[x] = 0 }
        }
        for y in 0..<height {
            let src = image + y * width
            let above = sums + y * s, row = sums + (y + 1) * s
            row[0] = 0
            var rowSum: Int32 = 0
            if hasSquares {
                // Sums and squared sums in one pass over the row.
                let squaresAbove = squares + y * s, squaresRow = squares + (y + 1) * s
                squaresRow[0] = 0
                var rowSquares: Int32 = 0
                for x in 0..<width {
                    let v = Int32(src[x])
                    rowSum &+= v
                    rowSquares &+= v &* v
                    row[x + 1] = above[x + 1] &+ rowSum
                    squaresRow[x + 1] = squaresAbove[x + 1] &+ rowSquares
                }
            } else {
                for x in 0..<width {
                    rowSum &+= Int32(src[x])
                    row[x + 1] = above[x + 1] &+ rowSum
                }
            }
        }
        if tilted { computeTilted() }
    }

    /// The 45-degree integral: T(X, Y) sums the pixels (x, y) with y < Y and |x - X + 1| <= Y - 1 - y,
    /// the triangle whose apex is (X - 1, Y - 1). Row by row, T grows by the two diagonals that end
    /// at the apex: T(X, Y) = T(X, Y - 1) + D1(X - 1, Y - 1) + D2(X - 1, Y - 1) - I(X - 1, Y - 1),
    /// where D1 sums up-left and D2 up-right from a pixel.
    private func computeTilted() {
        let s = stride
        let t = sums + area
        for x in 0..<s { t[x] = 0 }
        guard width > 0, height > 0 else { return }
        // up1[x + 1] = D1(x, y - 1) with up1[0] = 0; up2[x] = D2(x, y - 1) with up2[width] = 0.
        let up1 = diagonals, up2 = diagonals + width + 1
        for x in 0...width { up1[x] = 0; up2[x] = 0 }
        for y in 1...height {
            let src = image + (y - 1) * width
            let previous = t + (y - 1) * s, row = t + y * s
            // Update in place: D1 reads its left neighbour in the old row (go right to left),
            // D2 its right neighbour (go left to right).
            var x = width - 1
            while x >= 0 {
                up1[x + 1] = Int32(src[x]) &+ up1[x]
                x -= 1
            }
            let d2BeforeFirst = up2[0]  // D2(-1, y - 1) = D2(0, y - 2): the pixel at x = -1 is outside
            for x in 0..<width { up2[x] = Int32(src[x]) &+ up2[x + 1] }
            row[0] = previous[0] &+ d2BeforeFirst
            for column in 1...width {
                row[column] = previous[column] &+ up1[column] &+ up2[column - 1] &- Int32(src[column - 1])
            }
        }
    }
}
