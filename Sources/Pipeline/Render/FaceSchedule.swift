import Evaluation
import FaceCore

/// The faces to draw on each frame of `facetrack render`, by frame number in the whole video:
/// a tracks file's rows (optionally with each track's gaps filled), or a visual diff's outcomes.
struct FaceSchedule {
    /// Faces by frame.
    private(set) var faces: [Int: [TrackedFace]] = [:]
    /// The rows each frame's faces came from, to check against the decoded frame's size.
    private(set) var rows: [Int: [TrackFile.Row]] = [:]
    /// The highest frame any row names.
    private(set) var lastFrame: Int?
    /// Interpolated faces added (`--interpolate`).
    private(set) var interpolated = 0

    /// The rows' faces. Without `anonymize` a track marked `mask` makes anonymisation
    /// necessary: then only such tracks are masked (`masksOnlyMarked`).
    init(rows: [TrackFile.Row], interpolate: Bool, masksOnlyMarked: Bool) {
        for row in rows {
            lastFrame = max(lastFrame ?? row.frame, row.frame)
            self.rows[row.frame, default: []].append(row)
            guard let face = row.face else { continue }
            faces[row.frame, default: []].append(Self.tracked(face, row: row, masksOnlyMarked: masksOnlyMarked))
        }
        guard interpolate else { return }
        let byTrack = Dictionary(grouping: rows.filter { $0.face != nil && $0.trackID != nil }, by: { $0.trackID! })
        for trackRows in byTrack.values {
            let sorted = trackRows.sorted { $0.frame < $1.frame }
            for (a, b) in zip(sorted, sorted.dropFirst()) where b.frame - a.frame > 1 && a.shot == b.shot {
                let from = a.face!, to = b.face!
                for frame in (a.frame + 1)..<b.frame {
                    let t = Double(frame - a.frame) / Double(b.frame - a.frame)
                    var face = FaceObservation(bounds: Rect(x: mix(from.bounds.x, to.bounds.x, t), y: mix(from.bounds.y, to.bounds.y, t),
                                                            width: mix(from.bounds.width, to.bounds.width, t),
                                                            height: mix(from.bounds.height, to.bounds.height, t)),
                                               confidence: min(from.confidence, to.confidence))
                    face.leftEye = mix(from.leftEye, to.leftEye, t)
                    face.rightEye = mix(from.rightEye, to.rightEye, t)
                    face.mouth = mix(from.mouth, to.mouth, t)
                    face.source = .predicted
                    var row = a
                    row.frame = frame
                    row.maskRegion = nil
                    if a.mask != b.mask { row.mask = a.mask ?? b.mask }
                    faces[frame, default: []].append(Self.tracked(face, row: row, masksOnlyMarked: masksOnlyMarked))
                    interpolated += 1
                }
            }
        }
    }

    /// A visual diff's faces: matched predictions, missed truth faces, false detections, and
    /// predictions that are not scored, each with its mark.
    init(outcomes: [Int: FrameOutcome], rows: [TrackFile.Row]) {
        for row in rows {
            lastFrame = max(lastFrame ?? row.frame, row.frame)
            self.rows[row.frame, default: []].append(row)
        }
        for (frame, outcome) in outcomes {
            var list: [TrackedFace] = []
            func add(_ row: TrackRow, _ mark: DiffMark) {
                var face = FaceObservation(bounds: row.box, confidence: row.confidence)
                face.leftEye = row.leftEye
                face.rightEye = row.rightEye
                var tracked = TrackedFace(observation: face, trackID: row.trackID)
                tracked.diffMark = mark
                list.append(tracked)
            }
            for match in outcome.matched { add(match.prediction, match.switchedFrom.map { .switched(from: $0) } ?? .matched) }
            for row in outcome.missed { add(row, .missed) }
            for row in outcome.falsePositives { add(row, .falseDetection) }
            for row in outcome.untracked + outcome.ignored { add(row, .notScored) }
            if !list.isEmpty { faces[frame] = list }
        }
    }

    private static func tracked(_ face: FaceObservation, row: TrackFile.Row, masksOnlyMarked: Bool) -> TrackedFace {
        var tracked = TrackedFace(observation: face, trackID: row.trackID)
        tracked.person = row.person
        tracked.maskRegion = row.maskRegion
        switch row.mask {
        case .keep?: tracked.masked = false
        case .mask?: tracked.masked = true
        case nil: tracked.masked = !masksOnlyMarked
        }
        return tracked
    }
}

private func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

private func mix(_ a: Point?, _ b: Point?, _ t: Double) -> Point? {
    guard let a, let b else { return nil }
    return Point(x: mix(a.x, b.x, t), y: mix(a.y, b.y, t))
}
