import FaceCore

/// Tiles covering a frame at a given scale, overlapping so that a small face cut by one tile's
/// edge lies whole in its neighbour. Order: row by row, so consecutive tiles sweep the frame.
struct TileGrid: Sendable, Equatable {
    /// The tiles' regions in frame pixels.
    let regions: [Rect]

    /// Tiles of `tileWidth` x `tileHeight` picture pixels at `scale` over a `width` x `height`
    /// frame, overlapping by at least `overlap` frame pixels. Empty when one tile holds the frame.
    init(width: Int, height: Int, tileWidth: Int, tileHeight: Int, scale: Double, overlap: Double) {
        let w = Double(tileWidth) / scale, h = Double(tileHeight) / scale
        let frameW = Double(width), frameH = Double(height)
        guard w < frameW || h < frameH else { regions = []; return }
        func starts(_ size: Double, _ frame: Double) -> [Double] {
            guard size < frame else { return [0] }
            let count = Int(((frame - overlap) / (size - overlap)).rounded(.up))
            let step = (frame - size) / Double(max(1, count - 1))
            return (0..<count).map { Double($0) * step }
        }
        let xs = starts(w, frameW), ys = starts(h, frameH)
        regions = ys.flatMap { y in xs.map { x in Rect(x: x, y: y, width: min(w, frameW), height: min(h, frameH)) } }
    }
}
