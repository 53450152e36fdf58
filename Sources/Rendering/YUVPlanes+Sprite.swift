import FaceCore
extension YUVPlanes {
    /// Scales `sprite`, walked through `layout` (its stored orientation), to fill each of `dests`
    /// and blends it over the picture, later rectangles over earlier ones, as `Canvas.draw(_:in:)`
    /// does in BGRA: bilinear taps, premultiplied, out = sprite + frame · (1 − alpha). Luma is
    /// blended per pixel. Each chroma sample gets the mean of its footprint's blended pixels;
    /// drawing all rectangles in one pass keeps that exact where two sprites meet in a footprint
    /// (a face's two eye sprites touch between the eyes).
    func blend(_ sprite: YUVSprite, layout: StoredLayout, in dests: [PixelRect]) {
        // The rectangles that show, their visible parts, and the box around those.
        let placed = dests.map { (dest: $0, clip: $0.clipped(width: width, height: height)) }
            .filter { !$0.dest.isEmpty && !$0.clip.isEmpty }
        guard let first = placed.first?.clip else { return }
        let union = placed.dropFirst().reduce(first) {
            PixelRect(x0: min($0.x0, $1.clip.x0), y0: min($0.y0, $1.clip.y0), x1: max($0.x1, $1.clip.x1), y1: max($0.y1, $1.clip.y1))
        }
        let chroma = chromaRect(of: union)
        // Where each rectangle's horizontal taps start in `taps`.
        let tapStart = placed.reduce(into: [0]) { $0.append($0.last! + $1.clip.width) }
        // `pixels`: per column of the union on the current row, premultiplied Cb and Cr and the
        // kept share of the frame (0-255); `sums`: the same summed per chroma column.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * union.width + 3 * chroma.width) { scratch in
            withUnsafeTemporaryAllocation(of: (Int, Int, Int).self, capacity: tapStart.last!) { tapBuffer in
                guard let pixels = scratch.baseAddress, let taps = tapBuffer.baseAddress else { return }
                let sums = pixels + 3 * union.width
                for (k, item) in placed.enumerated() {
                    horizontalTaps(item.dest, clip: item.clip, layout: layout, into: taps + tapStart[k])
                }
                sprite.values.withUnsafeBufferPointer { values in
                    guard let src = values.baseAddress else { return }
                    for cy in chroma.y0..<chroma.y1 {
                        sums.update(repeating: 0, count: 3 * chroma.width)
                        let rows = max(union.y0, cy << shiftY)..<min(union.y1, (cy + 1) << shiftY)
                        for y in rows {
                            for x in 0..<union.width { pixels[3 * x] = 0; pixels[3 * x + 1] = 0; pixels[3 * x + 2] = 255 }
                            for (k, (dest, clip)) in placed.enumerated() where y >= clip.y0 && y < clip.y1 {
                                let scaleY = Double(layout.countY) / Double(dest.height)
                                let (j0, j1, fy) = Canvas.tap((Double(y - dest.y0) + 0.5) * scaleY - 0.5, count: layout.countY)
                                blendRow(y, columns: clip.x0..<clip.x1, taps: taps + tapStart[k],
                                         row0: src + 4 * (layout.origin + j0 * layout.stepY),
                                         row1: src + 4 * (layout.origin + j1 * layout.stepY), fy: fy,
                                         pixels: pixels + 3 * (clip.x0 - union.x0))
                            }
                            for x in union.x0..<union.x1 {
                                let p = pixels + 3 * (x - union.x0), s = sums + 3 * ((x >> shiftX) - chroma.x0)
                                s[0] += p[0]; s[1] += p[1]; s[2] += p[2]
                            }
                        }
                        writeChroma(row: cy, columns: chroma.x0..<chroma.x1, sums: sums, covering: union.x0..<union.x1,
                                    rows: rows.count)
                    }
                }
            }
        }
    }

    /// The horizontal taps of the columns of `clip` for the sprite scaled to `dest`, as offsets
    /// into the sprite plus the weight of the second in 1/256; the same on every row.
    private func horizontalTaps(_ dest: PixelRect, clip: PixelRect, layout: StoredLayout,
                                into taps: UnsafeMutablePointer<(Int, Int, Int)>) {
        let scale = Double(layout.countX) / Double(dest.width)
        for x in clip.x0..<clip.x1 {
            let (i0, i1, fx) = Canvas.tap((Double(x - dest.x0) + 0.5) * scale - 0.5, count: layout.countX)
            taps[x - clip.x0] = (i0 * layout.stepX, i1 * layout.stepX, fx)
        }
    }

    /// Blends luma row `y` at `columns` from two sprite rows, `fy` (in 1/256) towards the second,
    /// and composes each pixel's premultiplied chroma and kept share over what `pixels` holds.
    @inline(__always)
    private func blendRow(_ y: Int, columns: Range<Int>, taps: UnsafePointer<(Int, Int, Int)>,
                          row0: UnsafePointer<Int32>, row1: UnsafePointer<Int32>, fy: Int,
                          pixels: UnsafeMutablePointer<Int>) {
        // Every value here is a sample (at most 16 bits) times a weight (at most 2^16), so the
        // arithmetic wraps without checks.
        let out = luma.row(y)
        for (i, x) in columns.enumerated() {
            let (o0, o1, fx) = taps[i]
            // Weights in 1/65536: the four neighbours of the sample point.
            let w00 = (256 &- fx) &* (256 &- fy), w01 = fx &* (256 &- fy), w10 = (256 &- fx) &* fy, w11 = fx &* fy
            let p00 = row0 + 4 &* o0, p01 = row0 + 4 &* o1, p10 = row1 + 4 &* o0, p11 = row1 + 4 &* o1
            @inline(__always) func mix(_ c: Int) -> Int {
                (Int(p00[c]) &* w00 &+ Int(p01[c]) &* w01 &+ Int(p10[c]) &* w10 &+ Int(p11[c]) &* w11 &+ 32768) >> 16
            }
            let alpha = mix(3)
            if alpha == 0 { continue }
            let p = pixels + 3 &* i
            // Opaque (most of a picture mask): nothing of the frame is kept, the same values as below.
            if alpha == 255 {
                out[x] = Sample(truncatingIfNeeded: min(maxValue, mix(0)))
                p[0] = mix(1); p[1] = mix(2); p[2] = 0
                continue
            }
            let keep = 255 &- alpha
            out[x] = Sample(truncatingIfNeeded: min(maxValue, mix(0) &+ (Int(out[x]) &* keep &+ 127) / 255))
            p[0] = mix(1) &+ (p[0] &* keep &+ 127) / 255
            p[1] = mix(2) &+ (p[1] &* keep &+ 127) / 255
            p[2] = (p[2] &* keep &+ 127) / 255
        }
    }

    /// Sets chroma row `cy` at `columns` from `sums` (per column: premultiplied Cb, Cr and kept
    /// share summed over the footprint pixels in `covering` on `rows` rows); footprint pixels
    /// outside keep the old value.
    private func writeChroma(row cy: Int, columns: Range<Int>, sums: UnsafePointer<Int>, covering: Range<Int>, rows: Int) {
        let allRows = footprintRows(cy).count, cbRow = cb.row(cy), crRow = cr.row(cy)
        for cx in columns {
            let footprint = footprintColumns(cx), s = sums + 3 * (cx - columns.lowerBound)
            let total = footprint.count * allRows
            let keep = s[2] + 255 * (total - overlap(footprint, covering) * rows)
            // round(x / (255 · total)) as floor(floor((x + 255 · total / 2) / 255) / total).
            let half = 255 * total / 2
            let u = ((255 * s[0] + keep * Int(cbRow[cx]) + half) / 255) >> total.trailingZeroBitCount
            let v = ((255 * s[1] + keep * Int(crRow[cx]) + half) / 255) >> total.trailingZeroBitCount
            cbRow[cx] = Sample(truncatingIfNeeded: min(maxValue, u))
            crRow[cx] = Sample(truncatingIfNeeded: min(maxValue, v))
        }
    }
}
