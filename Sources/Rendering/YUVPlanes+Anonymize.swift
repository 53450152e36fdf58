import FaceCore
/// The luma pixels behind one chroma sample, and which of them an ellipse mask covers.
struct ChromaFootprint {
    /// Luma columns of the footprint, inside the frame.
    var columns: Range<Int>
    /// Luma rows of the footprint, inside the frame (one or two).
    var rows: Range<Int>
    /// The masked columns of the first and the second row (empty when none or no such row).
    var spans: (Range<Int>, Range<Int>)
    /// How many pixels of the footprint the mask covers (at least 1).
    var covered: Int
    /// How many pixels the footprint has.
    var total: Int { columns.count * rows.count }
}

extension YUVPlanes {
    /// Fills the pixels inside `mask` with an opaque colour.
    func fill(_ mask: EllipseMask, color: YUVColor) {
        let region = mask.bounds.clipped(width: width, height: height)
        guard !region.isEmpty else { return }
        let y = Sample(truncatingIfNeeded: color.y)
        for row in region.y0..<region.y1 {
            guard let span = mask.span(row: row, within: region) else { continue }
            (luma.row(row) + span.lo).update(repeating: y, count: span.hi - span.lo)
        }
        let chroma = chromaRect(of: region)
        forEachChromaSample(of: mask, in: region, chromaRows: chroma.y0..<chroma.y1, interior: { cy, run in
            (cb.row(cy) + run.lowerBound).update(repeating: Sample(truncatingIfNeeded: color.cb), count: run.count)
            (cr.row(cy) + run.lowerBound).update(repeating: Sample(truncatingIfNeeded: color.cr), count: run.count)
        }, edge: { cx, cy, f in
            cb.row(cy)[cx] = YUVPlanes.mix(cb.row(cy)[cx], color.cb, covered: f.covered, total: f.total)
            cr.row(cy)[cx] = YUVPlanes.mix(cr.row(cy)[cx], color.cr, covered: f.covered, total: f.total)
        })
    }

    /// Blurs the pixels inside `mask` as `BoxBlur` does in BGRA: each plane's part of the mask's
    /// bounding box is blurred on its own, chroma with the radius scaled by the subsampling, and
    /// each chroma sample mixes blurred and original values by the masked share of its footprint.
    func blur(_ mask: EllipseMask, radius: Int) {
        let region = mask.bounds.clipped(width: width, height: height)
        guard !region.isEmpty else { return }
        PlaneBlur.withBlurred(luma, region: region, radiusX: radius, radiusY: radius) { result in
            let h = region.height
            for y in region.y0..<region.y1 {
                guard let span = mask.span(row: y, within: region) else { continue }
                let column = result + (y - region.y0), dst = luma.row(y)
                for x in span.lo..<span.hi { dst[x] = column[(x - region.x0) * h] }
            }
        }
        let chroma = chromaRect(of: region), r = min(radius, BoxBlur.maxRadius)
        let rx = max(1, r >> shiftX), ry = max(1, r >> shiftY)
        PlaneBlur.withBlurred(cb, region: chroma, radiusX: rx, radiusY: ry) { blurredCb in
            PlaneBlur.withBlurred(cr, region: chroma, radiusX: rx, radiusY: ry) { blurredCr in
                let h = chroma.height
                forEachChromaSample(of: mask, in: region, chromaRows: chroma.y0..<chroma.y1, interior: { cy, run in
                    let u = cb.row(cy), v = cr.row(cy)
                    for cx in run {
                        let i = (cx - chroma.x0) * h + (cy - chroma.y0)
                        u[cx] = blurredCb[i]
                        v[cx] = blurredCr[i]
                    }
                }, edge: { cx, cy, f in
                    let i = (cx - chroma.x0) * h + (cy - chroma.y0)
                    cb.row(cy)[cx] = YUVPlanes.mix(cb.row(cy)[cx], Int(blurredCb[i]), covered: f.covered, total: f.total)
                    cr.row(cy)[cx] = YUVPlanes.mix(cr.row(cy)[cx], Int(blurredCr[i]), covered: f.covered, total: f.total)
                })
            }
        }
    }

    /// Visits the chroma samples of `chromaRows` with at least one luma pixel inside `mask` and
    /// `region` (the mask's bounds clipped to the frame): per row, `interior` gets the run of
    /// samples the mask covers wholly (possibly empty) and `edge` each other sample, with its footprint.
    func forEachChromaSample(of mask: EllipseMask, in region: PixelRect, chromaRows: Range<Int>,
                             interior: (_ cy: Int, _ run: Range<Int>) -> Void,
                             edge: (_ cx: Int, _ cy: Int, ChromaFootprint) -> Void) {
        for cy in chromaRows {
            let rows = footprintRows(cy)
            let first = maskedColumns(mask, row: rows.lowerBound, region: region)
            let second = rows.count > 1 ? maskedColumns(mask, row: rows.lowerBound + 1, region: region) : 0..<0
            guard !first.isEmpty || !second.isEmpty else { continue }
            let lo = first.isEmpty ? second.lowerBound : second.isEmpty ? first.lowerBound : min(first.lowerBound, second.lowerBound)
            let hi = max(first.upperBound, second.upperBound)
            let all = (lo >> shiftX)..<(((hi - 1) >> shiftX) + 1)
            // Samples whose whole footprint is masked: inside the span every footprint row shares.
            let shared = rows.count > 1 ? first.clamped(to: second) : first
            let run = shared.isEmpty ? all.lowerBound..<all.lowerBound : wholeColumns(of: shared).clamped(to: all)
            func visit(_ columns: Range<Int>) {
                for cx in columns {
                    let footprint = footprintColumns(cx)
                    let covered = overlap(footprint, first) + overlap(footprint, second)
                    guard covered > 0 else { continue }
                    edge(cx, cy, ChromaFootprint(columns: footprint, rows: rows, spans: (first, second), covered: covered))
                }
            }
            visit(all.lowerBound..<run.lowerBound)
            if !run.isEmpty { interior(cy, run) }
            visit(run.upperBound..<all.upperBound)
        }
    }

    /// The columns of row `y` inside `mask` and `region` (empty when none).
    private func maskedColumns(_ mask: EllipseMask, row y: Int, region: PixelRect) -> Range<Int> {
        guard y >= region.y0, y < region.y1, let span = mask.span(row: y, within: region) else { return 0..<0 }
        return span.lo..<span.hi
    }
}
