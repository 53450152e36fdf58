import FaceCore

/// How well the masks a tracks CSV describes would hide the truth faces: every predicted row is
/// one mask, the `EllipseMask` the renderer draws for it at `maskScale` in `maskShape` around its region
/// (`TrackRow.maskRegion`: the CSV's mask columns, else the head `MaskRegion` finds around the box). Counted on whole pixels,
/// a pixel inside a box or mask when its centre is.
///
/// - A truth face is covered when at least `coveredShare` of its box's pixels lie inside the
///   union of its frame's masks; a frame with an uncovered face exposes it.
/// - False masking: the masked pixels that lie in no truth box (ignored truth faces included:
///   they are faces). The CSV gives no frame size, so masks are clipped at the top and left
///   edges only; a mask reaching past the right or bottom edge counts that part too.
public struct MaskCoverage: Sendable, Equatable {
    /// Truth faces counted (not `ignore`).
    public var truthFaces = 0
    /// Truth faces with at least `coveredShare` of their box masked.
    public var coveredFaces = 0
    /// Frames with at least one truth face not covered.
    public var exposingFrames = 0
    /// Masked pixels, all frames together.
    public var maskedPixels = 0
    /// Masked pixels in no truth box.
    public var falselyMaskedPixels = 0

    /// The share of a truth box that must be masked for the face to count as covered.
    public static let coveredShare = 0.8

    /// Nothing counted yet.
    public init() {}

    /// Share of truth faces covered; nil without truth faces.
    public var coverage: Double? { truthFaces > 0 ? Double(coveredFaces) / Double(truthFaces) : nil }
    /// Share of masked pixels that hide no truth face; nil when nothing is masked.
    public var falseMaskShare: Double? { maskedPixels > 0 ? Double(falselyMaskedPixels) / Double(maskedPixels) : nil }

    /// Adds one frame: its counted truth boxes, its ignored truth boxes and its predicted mask regions.
    mutating func add(truth: [Rect], ignored: [Rect], predictions: [Rect], maskScale: Double, maskShape: MaskShape = .ellipse) {
        let masks = predictions.compactMap { EllipseMask(face: $0, scale: maskScale, shape: maskShape) }
        var exposes = false
        for box in truth {
            truthFaces += 1
            if Self.maskedShare(of: box, by: masks) >= Self.coveredShare { coveredFaces += 1 } else { exposes = true }
        }
        if exposes { exposingFrames += 1 }
        let (masked, falsely) = Self.maskedArea(masks, faces: (truth + ignored).map(Self.pixels))
        maskedPixels += masked
        falselyMaskedPixels += falsely
    }

    /// The share of `box`'s pixels inside the union of `masks`; a box smaller than a pixel counts
    /// as masked when its centre is.
    static func maskedShare(of box: Rect, by masks: [EllipseMask]) -> Double {
        let area = pixels(box)
        guard !area.isEmpty else {
            let c = box.center
            let y = Int((c.y).rounded(.down)), x = Int((c.x).rounded(.down))
            let point = PixelRect(x0: x, y0: y, x1: x + 1, y1: y + 1)
            return masks.contains { $0.span(row: y, within: point) != nil } ? 1 : 0
        }
        var inside = 0
        var spans: [(lo: Int, hi: Int)] = []
        for y in area.y0..<area.y1 {
            spans.removeAll(keepingCapacity: true)
            for mask in masks { if let span = mask.span(row: y, within: area) { spans.append(span) } }
            inside += unionLength(&spans)
        }
        return Double(inside) / Double(area.width * area.height)
    }

    /// Pixels inside the union of `masks` (clipped at x, y = 0) and, of those, how many lie in none of `faces`.
    static func maskedArea(_ masks: [EllipseMask], faces: [PixelRect]) -> (masked: Int, falsely: Int) {
        guard let top = masks.map(\.bounds.y0).min(), let bottom = masks.map(\.bounds.y1).max() else { return (0, 0) }
        let everywhere = PixelRect(x0: 0, y0: 0, x1: PixelRect.limit, y1: PixelRect.limit)
        var masked = 0, falsely = 0
        var spans: [(lo: Int, hi: Int)] = [], faceSpans: [(lo: Int, hi: Int)] = []
        for y in max(0, top)..<max(0, bottom) {
            spans.removeAll(keepingCapacity: true)
            for mask in masks { if let span = mask.span(row: y, within: everywhere) { spans.append(span) } }
            let rowMasked = unionLength(&spans)
            guard rowMasked > 0 else { continue }
            masked += rowMasked
            // Masked pixels inside a face: the union of (mask span ∩ face span) over all pairs.
            faceSpans.removeAll(keepingCapacity: true)
            for face in faces where face.y0 <= y && y < face.y1 {
                for span in spans where span.lo < face.x1 && face.x0 < span.hi {
                    faceSpans.append((max(span.lo, face.x0), min(span.hi, face.x1)))
                }
            }
            falsely += rowMasked - unionLength(&faceSpans)
        }
        return (masked, falsely)
    }

    /// The whole pixels whose centres lie inside `box`.
    static func pixels(_ box: Rect) -> PixelRect {
        PixelRect(x0: PixelRect.index((box.x - 0.5).rounded(.up)), y0: PixelRect.index((box.y - 0.5).rounded(.up)),
                  x1: PixelRect.index((box.x + box.width - 0.5).rounded(.up)),
                  y1: PixelRect.index((box.y + box.height - 0.5).rounded(.up)))
    }

    /// The total length of the union of half-open intervals (sorts them in place).
    private static func unionLength(_ spans: inout [(lo: Int, hi: Int)]) -> Int {
        guard !spans.isEmpty else { return 0 }
        spans.sort { $0.lo < $1.lo }
        var total = 0, start = spans[0].lo, end = spans[0].hi
        for span in spans.dropFirst() {
            if span.lo > end {
                total += end - start
                (start, end) = (span.lo, span.hi)
            } else {
                end = max(end, span.hi)
            }
        }
        return total + end - start
    }
}
