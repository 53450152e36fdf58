import FaceCore

/// Hides one face at a time: blurs, pixelates or fills the ellipse around its box.
struct Anonymizer {
    let mode: AnonymizeMode
    let maskScale: Double
    let fillColor: RenderColor

    /// Hides the ellipse around `face` on `canvas`; boxes that are not finite and positive are skipped.
    func apply(to face: Rect, on canvas: Canvas) {
        guard let mask = EllipseMask(face: face, scale: maskScale) else { return }
        let region = mask.bounds.clipped(width: canvas.width, height: canvas.height)
        guard !region.isEmpty else { return }
        // Strength follows the face size; capped so absurd boxes cannot make absurd work.
        let faceSize = min(min(face.width, face.height), Double(PixelRect.limit))
        switch mode {
        case .blur:
            BoxBlur.blur(canvas.image, region: region, radius: max(1, Int(faceSize / 8)), mask: mask)
        case .pixelate:
            pixelate(region: region, mask: mask, block: max(2, Int(faceSize / 10)), on: canvas)
        case .fill:
            let value = Canvas.packed(fillColor)
            for y in region.y0..<region.y1 {
                guard let span = mask.span(row: y, within: region) else { continue }
                let p = UnsafeMutableRawPointer(canvas.image.row(y)).assumingMemoryBound(to: UInt32.self)
                for x in span.lo..<span.hi { p[x] = value }
            }
        }
    }

    /// Splits the mask's bounding box into `block` x `block` squares anchored at its top-left corner
    /// (so blocks move with the face, not with the frame) and paints the masked part of each square
    /// with the average colour of its visible pixels.
    private func pixelate(region: PixelRect, mask: EllipseMask, block: Int, on canvas: Canvas) {
        let originX = mask.bounds.x0, originY = mask.bounds.y0
        var top = originY + (region.y0 - originY) / block * block
        while top < region.y1 {
            let rows = max(top, region.y0)..<min(top + block, region.y1)
            var left = originX + (region.x0 - originX) / block * block
            while left < region.x1 {
                let cell = PixelRect(x0: max(left, region.x0), y0: rows.lowerBound,
                                     x1: min(left + block, region.x1), y1: rows.upperBound)
                paintAverage(of: cell, mask: mask, on: canvas)
                left += block
            }
            top += block
        }
    }

    /// Averages B, G, R over `cell` and writes the average to the cell's pixels inside the mask.
    private func paintAverage(of cell: PixelRect, mask: EllipseMask, on canvas: Canvas) {
        var sb = 0, sg = 0, sr = 0
        for y in cell.y0..<cell.y1 {
            let row = canvas.image.row(y)
            for x in cell.x0..<cell.x1 {
                let p = row + x * 4
                sb += Int(p[0]); sg += Int(p[1]); sr += Int(p[2])
            }
        }
        let n = cell.width * cell.height
        let b = UInt8((sb + n / 2) / n), g = UInt8((sg + n / 2) / n), r = UInt8((sr + n / 2) / n)
        for y in cell.y0..<cell.y1 {
            guard let span = mask.span(row: y, within: cell) else { continue }
            let row = canvas.image.row(y)
            for x in span.lo..<span.hi {
                let p = row + x * 4
                p[0] = b; p[1] = g; p[2] = r
            }
        }
    }
}
