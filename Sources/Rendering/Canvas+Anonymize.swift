import FaceCore

extension Canvas {
    func blur(_ mask: EllipseMask, radius: Int) {
        BoxBlur.blur(image, region: mask.bounds.clipped(width: width, height: height), radius: radius, mask: mask)
    }

    func fill(_ mask: EllipseMask, color: RenderColor) {
        let region = mask.bounds.clipped(width: width, height: height)
        guard !region.isEmpty else { return }
        let value = Canvas.packed(color)
        for y in region.y0..<region.y1 {
            guard let span = mask.span(row: y, within: region) else { continue }
            let p = UnsafeMutableRawPointer(image.row(y)).assumingMemoryBound(to: UInt32.self)
            for x in span.lo..<span.hi { p[x] = value }
        }
    }

    /// Splits the mask's bounding box into `block` x `block` squares anchored at its top-left corner
    /// (so blocks move with the face, not with the frame) and paints the masked part of each square
    /// with the average colour of its visible pixels.
    func pixelate(_ mask: EllipseMask, block: Int) {
        let region = mask.bounds.clipped(width: width, height: height)
        guard !region.isEmpty else { return }
        let originX = mask.bounds.x0, originY = mask.bounds.y0
        var top = originY + (region.y0 - originY) / block * block
        while top < region.y1 {
            let rows = max(top, region.y0)..<min(top + block, region.y1)
            var left = originX + (region.x0 - originX) / block * block
            while left < region.x1 {
                let cell = PixelRect(x0: max(left, region.x0), y0: rows.lowerBound,
                                     x1: min(left + block, region.x1), y1: rows.upperBound)
                paintAverage(of: cell, mask: mask)
                left += block
            }
            top += block
        }
    }

    /// Averages B, G, R over `cell` and writes the average to the cell's pixels inside the mask.
    private func paintAverage(of cell: PixelRect, mask: EllipseMask) {
        var sb = 0, sg = 0, sr = 0
        for y in cell.y0..<cell.y1 {
            let row = image.row(y)
            for x in cell.x0..<cell.x1 {
                let p = row + x * 4
                sb += Int(p[0]); sg += Int(p[1]); sr += Int(p[2])
            }
        }
        let n = cell.width * cell.height
        let b = UInt8((sb + n / 2) / n), g = UInt8((sg + n / 2) / n), r = UInt8((sr + n / 2) / n)
        for y in cell.y0..<cell.y1 {
            guard let span = mask.span(row: y, within: cell) else { continue }
            let row = image.row(y)
            for x in span.lo..<span.hi {
                let p = row + x * 4
                p[0] = b; p[1] = g; p[2] = r
            }
        }
    }
}
