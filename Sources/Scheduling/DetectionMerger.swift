import FaceCore

/// Puts the faces of one frame's passes together: each pass's faces mapped from its picture to
/// frame pixels and labelled with the pass's source; faces cut by the edge of a crop or tile (an
/// edge inside the frame) dropped, since their box is cut too; then overlapping boxes reduced to
/// the most confident one (non-maximum suppression). Boxes that overlap little but of which one
/// lies mostly inside the other are the same face too: a part of it (a tile smaller than the face
/// sees only its eyes and forehead) or the same face boxed tighter by another pass.
package struct DetectionMerger: Sendable {
    /// Boxes overlapping more than this (IoU) are the same face.
    package var overlapThreshold: Double
    /// A box with at least this share of its area inside another is the same face.
    package var containedShare: Double
    /// Picture pixels from a region's inner edge within which a face counts as cut.
    package var edgeMargin: Double
    private let frame: Rect
    private var faces: [FaceObservation] = []

    /// A merger for one `width` x `height` frame.
    package init(width: Int, height: Int, overlapThreshold: Double = 0.4, containedShare: Double = 0.7,
                edgeMargin: Double = 2) {
        frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        self.overlapThreshold = overlapThreshold
        self.containedShare = containedShare
        self.edgeMargin = edgeMargin
    }

    /// Adds the faces `pass` found, in its picture's pixels.
    package mutating func add(_ found: [FaceObservation], from pass: ScheduledPass) {
        let sx = pass.region.width / Double(pass.pictureWidth), sy = pass.region.height / Double(pass.pictureHeight)
        let reachesBeyond = pass.region.intersection(frame) != pass.region
        for face in found {
            if isCut(face.bounds, pictureWidth: pass.pictureWidth, pictureHeight: pass.pictureHeight, region: pass.region) {
                continue
            }
            var mapped = face.mapped(scaleX: sx, scaleY: sy, offsetX: pass.region.x, offsetY: pass.region.y)
            mapped.source = pass.source
            mapped.directConfidence = pass.looksStraight(at: mapped.bounds) ? face.confidence : 0
            // A padded picture (a close-up) boxes a face beyond the frame: clamped to it, as the
            // whole-frame pass's boxes are to its picture.
            if reachesBeyond {
                mapped.bounds = mapped.bounds.intersection(frame)
                if mapped.bounds.area <= 0 { continue }
            }
            faces.append(mapped)
        }
    }

    /// The merged faces, most confident first; each keeps the best direct look of the boxes merged
    /// into it.
    package func merged() -> [FaceObservation] {
        let sorted = faces.sorted { $0.confidence > $1.confidence }
        var kept: [FaceObservation] = []
        for face in sorted {
            if let same = kept.firstIndex(where: { isSameFace($0.bounds, face.bounds) }) {
                kept[same].directConfidence = max(kept[same].directConfidence ?? 0, face.directConfidence ?? 0)
            } else {
                kept.append(face)
            }
        }
        return kept
    }

    private func isSameFace(_ a: Rect, _ b: Rect) -> Bool {
        // An empty or invalid box is inside nothing (it is dropped as invalid later).
        let smaller = min(a.area, b.area)
        return a.iou(b) > overlapThreshold || (smaller > 0 && a.intersection(b).area >= containedShare * smaller)
    }

    /// True when the box touches an edge of the picture that lies inside the frame.
    private func isCut(_ box: Rect, pictureWidth: Int, pictureHeight: Int, region: Rect) -> Bool {
        let m = edgeMargin
        return (box.x <= m && region.x > frame.x)
            || (box.y <= m && region.y > frame.y)
            || (box.maxX >= Double(pictureWidth) - m && region.maxX < frame.maxX)
            || (box.maxY >= Double(pictureHeight) - m && region.maxY < frame.maxY)
    }
}

extension FaceObservation {
    /// The observation with every coordinate scaled, then offset (picture to frame pixels).
    func mapped(scaleX: Double, scaleY: Double, offsetX: Double, offsetY: Double) -> FaceObservation {
        func map(_ p: Point?) -> Point? { p.map { Point(x: $0.x * scaleX + offsetX, y: $0.y * scaleY + offsetY) } }
        var out = self
        out.bounds = Rect(x: bounds.x * scaleX + offsetX, y: bounds.y * scaleY + offsetY,
                          width: bounds.width * scaleX, height: bounds.height * scaleY)
        out.leftEye = map(leftEye)
        out.rightEye = map(rightEye)
        out.mouth = map(mouth)
        out.nose = map(nose)
        out.leftEar = map(leftEar)
        out.rightEar = map(rightEar)
        out.landmarks = landmarks.map { $0.map { Point(x: $0.x * scaleX + offsetX, y: $0.y * scaleY + offsetY) } }
        return out
    }
}
