import FaceCore

extension YUVPlanes {
    /// Paints the pixels inside `mask` with the mean of their `block` x `block` cell, as the BGRA
    /// canvas does: cells lie on a grid through (`anchorX`, `anchorY`) (the stored position of the
    /// mask's upright top-left corner) and average the pixels of the mask's box they hold; luma and
    /// the chroma each pixel shows are averaged alike. Cells are worked one row of cells at a time,
    /// keeping the row before for chroma samples that straddle two.
    func pixelate(_ mask: EllipseMask, block: Int, anchorX: Int, anchorY: Int) {
        let region = mask.bounds.clipped(width: width, height: height)
        guard !region.isEmpty else { return }
        let firstColumn = floorDivision(region.x0 - anchorX, block)
        let columns = floorDivision(region.x1 - 1 - anchorX, block) - firstColumn + 1
        let cellRows = floorDivision(region.y0 - anchorY, block)...floorDivision(region.y1 - 1 - anchorY, block)
        let chroma = chromaRect(of: region)
        /// The columns of cell column `c` inside the region.
        func cellColumns(_ c: Int) -> Range<Int> {
            let left = anchorX + (firstColumn + c) * block
            return max(region.x0, left)..<min(region.x1, left + block)
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: region.width + 8 * columns) { scratch in
            guard let cellOf = scratch.baseAddress else { return }
            // The cell column of each column of the region.
            for x in region.x0..<region.x1 { cellOf[x - region.x0] = floorDivision(x - anchorX, block) - firstColumn }
            // Means of Y, Cb, Cr and the pixel count of each cell, for this row of cells and the one before.
            var current = cellOf + region.width, previous = current + 4 * columns
            var nextChromaRow = chroma.y0
            for cellRow in cellRows {
                let rows = max(region.y0, anchorY + cellRow * block)..<min(region.y1, anchorY + (cellRow + 1) * block)
                averageCells(rows: rows, columns: columns, cellColumns: cellColumns, into: current)
                for y in rows {
                    guard let span = mask.span(row: y, within: region) else { continue }
                    for c in cellOf[span.lo - region.x0]...cellOf[span.hi - 1 - region.x0] {
                        let run = cellColumns(c).clamped(to: span.lo..<span.hi)
                        (luma.row(y) + run.lowerBound).update(repeating: Sample(truncatingIfNeeded: current[4 * c]), count: run.count)
                    }
                }
                // Chroma rows whose rows in the region are all averaged now.
                var end = nextChromaRow
                while end < chroma.y1, min(footprintRows(end).upperBound, region.y1) <= rows.upperBound { end += 1 }
                let now = current, before = previous
                /// The cell means (Cb, Cr) summed over the masked pixels of a footprint.
                func maskedSums(_ f: ChromaFootprint) -> (Int, Int) {
                    var sumCb = 0, sumCr = 0
                    for (i, y) in f.rows.enumerated() {
                        let cells = floorDivision(y - anchorY, block) == cellRow ? now : before
                        let masked = (i == 0 ? f.spans.0 : f.spans.1).clamped(to: f.columns)
                        for x in masked {
                            let c = 4 * cellOf[x - region.x0]
                            sumCb += cells[c + 1]
                            sumCr += cells[c + 2]
                        }
                    }
                    return (sumCb, sumCr)
                }
                forEachChromaSample(of: mask, in: region, chromaRows: nextChromaRow..<end, interior: { cy, run in
                    let rows = footprintRows(cy), u = cb.row(cy), v = cr.row(cy)
                    let oneCellRow = floorDivision(rows.lowerBound - anchorY, block) == floorDivision(rows.upperBound - 1 - anchorY, block)
                    let cells = floorDivision(rows.upperBound - 1 - anchorY, block) == cellRow ? now : before
                    for cx in run {
                        let columns = footprintColumns(cx), c = cellOf[columns.lowerBound - region.x0]
                        if oneCellRow, c == cellOf[columns.upperBound - 1 - region.x0] {
                            u[cx] = Sample(truncatingIfNeeded: cells[4 * c + 1])
                            v[cx] = Sample(truncatingIfNeeded: cells[4 * c + 2])
                        } else {
                            let total = columns.count * rows.count
                            let (sumCb, sumCr) = maskedSums(ChromaFootprint(columns: columns, rows: rows, spans: (columns, columns),
                                                                            covered: total))
                            u[cx] = YUVPlanes.mean(sumCb, count: total)
                            v[cx] = YUVPlanes.mean(sumCr, count: total)
                        }
                    }
                }, edge: { cx, cy, f in
                    let (sumCb, sumCr) = maskedSums(f)
                    let keep = f.total - f.covered
                    cb.row(cy)[cx] = YUVPlanes.mean(sumCb + keep * Int(cb.row(cy)[cx]), count: f.total)
                    cr.row(cy)[cx] = YUVPlanes.mean(sumCr + keep * Int(cr.row(cy)[cx]), count: f.total)
                })
                nextChromaRow = end
                swap(&current, &previous)
            }
        }
    }

    /// Sums luma and the chroma each pixel shows over `rows` per cell (cell `c` holding
    /// `cellColumns(c)`), then turns the sums into rounded means: four values per cell (Y, Cb, Cr,
    /// pixel count).
    private func averageCells(rows: Range<Int>, columns: Int, cellColumns: (Int) -> Range<Int>,
                              into cells: UnsafeMutablePointer<Int>) {
        cells.update(repeating: 0, count: 4 * columns)
        let step = 1 << shiftX
        for y in rows {
            let l = luma.row(y), u = cb.row(y >> shiftY), v = cr.row(y >> shiftY)
            for c in 0..<columns {
                let run = cellColumns(c)
                var sumY = 0
                for x in run { sumY += Int(l[x]) }
                // Each chroma sample counts once per pixel of the run it stands for: all `step`
                // of them, less the ones before the run's start and after its end.
                let first = run.lowerBound >> shiftX, last = (run.upperBound - 1) >> shiftX
                var sumCb = 0, sumCr = 0
                for k in first...last {
                    sumCb += Int(u[k])
                    sumCr += Int(v[k])
                }
                let before = run.lowerBound - (first << shiftX), after = ((last + 1) << shiftX) - run.upperBound
                cells[4 * c] += sumY
                cells[4 * c + 1] += step * sumCb - before * Int(u[first]) - after * Int(u[last])
                cells[4 * c + 2] += step * sumCr - before * Int(v[first]) - after * Int(v[last])
                cells[4 * c + 3] += run.count
            }
        }
        for c in stride(from: 0, to: 4 * columns, by: 4) {
            let n = cells[c + 3]
            guard n > 0 else { continue }
            for k in 0..<3 { cells[c + k] = (cells[c + k] + n / 2) / n }
        }
    }
}

/// `a / b` rounded towards minus infinity, for `b > 0`.
@inline(__always)
func floorDivision(_ a: Int, _ b: Int) -> Int {
    a >= 0 ? a / b : -((-a + b - 1) / b)
}
