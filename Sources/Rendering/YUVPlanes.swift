import FaceCore
/// The sample types of planar pictures: a byte for 8-bit video, a 16-bit word above.
protocol PlaneSample: FixedWidthInteger, UnsignedInteger, Sendable {}
extension UInt8: PlaneSample {}
extension UInt16: PlaneSample {}

/// One plane of samples, `width` x `height`, rows `stride` samples apart.
struct Plane<Sample: PlaneSample> {
    let base: UnsafeMutablePointer<Sample>
    let stride: Int
    let width: Int
    let height: Int

    init(_ raw: UnsafeMutableRawPointer, strideBytes: Int, width: Int, height: Int) {
        base = raw.assumingMemoryBound(to: Sample.self)
        stride = strideBytes / MemoryLayout<Sample>.size
        self.width = width
        self.height = height
    }

    /// The first sample of row `y`.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<Sample> { base + y * stride }
}

/// The three planes of a picture in its stored orientation, with drawing primitives in stored
/// pixel coordinates. Luma is written pixel by pixel; a chroma sample stands for the 1, 2 or 4
/// luma pixels of its footprint and gets the average of what those pixels would show, so shapes
/// whose edges fall inside a footprint keep their true share of colour there.
struct YUVPlanes<Sample: PlaneSample> {
    let luma: Plane<Sample>
    let cb: Plane<Sample>
    let cr: Plane<Sample>
    /// log2 of the chroma subsampling factors.
    let shiftX: Int
    let shiftY: Int
    /// The largest sample value.
    let maxValue: Int

    /// The planes of `image`, whose samples must be `Sample`s.
    init(_ image: YUVImage) {
        precondition(MemoryLayout<Sample>.size == image.encoding.bytesPerSample, "sample type does not match the bit depth")
        luma = Plane(image.planes.0, strideBytes: image.strides.0, width: image.width, height: image.height)
        cb = Plane(image.planes.1, strideBytes: image.strides.1, width: image.chromaWidth, height: image.chromaHeight)
        cr = Plane(image.planes.2, strideBytes: image.strides.2, width: image.chromaWidth, height: image.chromaHeight)
        shiftX = image.subsampling.shiftX
        shiftY = image.subsampling.shiftY
        maxValue = image.encoding.maxValue
    }

    var width: Int { luma.width }
    var height: Int { luma.height }

    /// The chroma samples whose footprints meet `rect` (which must be inside the frame and not empty).
    func chromaRect(of rect: PixelRect) -> PixelRect {
        PixelRect(x0: rect.x0 >> shiftX, y0: rect.y0 >> shiftY,
                  x1: ((rect.x1 - 1) >> shiftX) + 1, y1: ((rect.y1 - 1) >> shiftY) + 1)
    }

    /// The luma columns behind chroma column `cx`, inside the frame.
    @inline(__always)
    func footprintColumns(_ cx: Int) -> Range<Int> { (cx << shiftX)..<min((cx + 1) << shiftX, width) }

    /// The luma rows behind chroma row `cy`, inside the frame.
    @inline(__always)
    func footprintRows(_ cy: Int) -> Range<Int> { (cy << shiftY)..<min((cy + 1) << shiftY, height) }

    /// The rounded mean of `covered` pixels showing `new` and `total − covered` showing `old`;
    /// `total` is a footprint's size.
    @inline(__always)
    static func mix(_ old: Sample, _ new: Int, covered: Int, total: Int) -> Sample {
        if covered == total { return Sample(truncatingIfNeeded: new) }
        return mean(new * covered + Int(old) * (total - covered), count: total)
    }

    /// `sum / count` rounded, for a footprint's pixel count (1, 2 or 4: a shift, not a division).
    @inline(__always)
    static func mean(_ sum: Int, count: Int) -> Sample {
        Sample(truncatingIfNeeded: (sum + (count >> 1)) >> count.trailingZeroBitCount)
    }

    /// Fills `rect` minus `hole` (a stroke's inside, or `nil`) with an opaque colour. Chroma
    /// samples get the colour in proportion to the pixels of the shape in their footprint,
    /// worked out from the two rectangles; samples wholly inside the hole are not visited.
    func fill(_ rect: PixelRect, hole: PixelRect?, color: YUVColor) {
        let clip = rect.clipped(width: width, height: height)
        guard !clip.isEmpty else { return }
        var inner = (hole ?? PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)).clipped(width: width, height: height)
        let hasHole = !inner.isEmpty
        // A hole wholly outside the frame clips to an inverted rectangle: make it a plain empty one.
        if !hasHole { inner = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        let y = Sample(truncatingIfNeeded: color.y)
        for row in clip.y0..<clip.y1 {
            let p = luma.row(row)
            if hasHole, row >= inner.y0, row < inner.y1 {
                (p + clip.x0).update(repeating: y, count: inner.x0 - clip.x0)
                (p + inner.x1).update(repeating: y, count: clip.x1 - inner.x1)
            } else {
                (p + clip.x0).update(repeating: y, count: clip.width)
            }
        }
        let chroma = chromaRect(of: clip), columns = chroma.x0..<chroma.x1
        // Samples whose whole footprint is in the hole are left alone.
        let skip = hasHole ? wholeSamples(of: inner) : PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        for cy in chroma.y0..<chroma.y1 {
            if !skip.isEmpty, cy >= skip.y0, cy < skip.y1 {
                mixChroma(row: cy, columns: (chroma.x0..<skip.x0).clamped(to: columns), shape: clip, hole: inner, color: color)
                mixChroma(row: cy, columns: (skip.x1..<chroma.x1).clamped(to: columns), shape: clip, hole: inner, color: color)
            } else {
                mixChroma(row: cy, columns: columns, shape: clip, hole: inner, color: color)
            }
        }
    }

    /// Mixes `color` into chroma row `cy` at `columns`, each sample by the share of its footprint
    /// inside `shape` minus `hole` (both clipped to the frame).
    private func mixChroma(row cy: Int, columns: Range<Int>, shape: PixelRect, hole: PixelRect, color: YUVColor) {
        guard !columns.isEmpty else { return }
        let rows = footprintRows(cy)
        let rowsIn = overlap(rows, shape.y0..<shape.y1), rowsInHole = overlap(rows, hole.y0..<hole.y1)
        let cbRow = cb.row(cy), crRow = cr.row(cy)
        func mixEach(_ range: Range<Int>) {
            for cx in range {
                let footprint = footprintColumns(cx)
                let covered = overlap(footprint, shape.x0..<shape.x1) * rowsIn - overlap(footprint, hole.x0..<hole.x1) * rowsInHole
                guard covered > 0 else { continue }
                let total = footprint.count * rows.count
                cbRow[cx] = YUVPlanes.mix(cbRow[cx], color.cb, covered: covered, total: total)
                crRow[cx] = YUVPlanes.mix(crRow[cx], color.cr, covered: covered, total: total)
            }
        }
        // Between its edge samples a row clear of the hole takes the colour outright.
        let whole = wholeColumns(of: shape.x0..<shape.x1).clamped(to: columns)
        guard rowsInHole == 0, rowsIn == rows.count, !whole.isEmpty else { return mixEach(columns) }
        mixEach(columns.lowerBound..<whole.lowerBound)
        (cbRow + whole.lowerBound).update(repeating: Sample(truncatingIfNeeded: color.cb), count: whole.count)
        (crRow + whole.lowerBound).update(repeating: Sample(truncatingIfNeeded: color.cr), count: whole.count)
        mixEach(whole.upperBound..<columns.upperBound)
    }

    /// The chroma columns whose whole footprint lies in the luma columns `columns` (inside the frame).
    func wholeColumns(of columns: Range<Int>) -> Range<Int> {
        let first = (columns.lowerBound + (1 << shiftX) - 1) >> shiftX
        let end = columns.upperBound == width ? cb.width : columns.upperBound >> shiftX
        return first..<max(first, end)
    }

    /// The chroma samples whose whole footprint lies in `rect` (inside the frame, not empty).
    private func wholeSamples(of rect: PixelRect) -> PixelRect {
        let columns = wholeColumns(of: rect.x0..<rect.x1)
        let top = (rect.y0 + (1 << shiftY) - 1) >> shiftY
        let end = rect.y1 == height ? cb.height : rect.y1 >> shiftY
        return PixelRect(x0: columns.lowerBound, y0: top, x1: columns.upperBound, y1: max(top, end))
    }
}

/// How many integers two ranges share (0 when they do not meet).
@inline(__always)
func overlap(_ a: Range<Int>, _ b: Range<Int>) -> Int {
    max(0, min(a.upperBound, b.upperBound) - max(a.lowerBound, b.lowerBound))
}
