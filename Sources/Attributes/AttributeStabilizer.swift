import FaceCore

/// Turns the raw attribute scores of tracked faces into the `hasSmile` / eye-closed flags, with
/// hysteresis per track (`AttributeThresholds`). Runs in the pipeline's serial tracking stage.
///
/// Detected rows with scores get flags from their score and the track's previous flag; detected
/// rows without scores (face too small, mesh found no face) get no flags and leave the track's
/// state alone. Eyes are judged on the absolute band until their track has enough history, then
/// relative to the track's typical open value (`EyeBaseline`, see `AttributeThresholds`). Predicted rows (source `predicted`) keep the track's last known flags (their
/// roll, yaw and refined landmarks are the last measured ones, moved with the box, as the tracker
/// already does). Untracked faces (no ID yet) are decided without history.
public final class AttributeStabilizer: TrackedFaceProcessor {
    /// The thresholds in use.
    public let thresholds: AttributeThresholds

    private struct State {
        var leftClosed: Bool?
        var rightClosed: Bool?
        var smiling: Bool?
        var leftBaseline = EyeBaseline()
        var rightBaseline = EyeBaseline()
        var lastBounds: Rect?
        var lastFrame: Int
    }

    private var states: [Int: State] = [:]
    /// Tracks unseen for this many frames are forgotten (keeps memory flat on long videos).
    private let forgetAfter = 1000

    /// Creates a stabilizer with no history.
    public init(thresholds: AttributeThresholds = AttributeThresholds()) {
        self.thresholds = thresholds
    }

    /// Sets the flags of one frame's faces in place.
    public func process(_ faces: inout [TrackedFace], frame: Int) {
        for i in faces.indices {
            let id = faces[i].trackID
            var state = id.flatMap { states[$0] } ?? State(lastFrame: frame)
            switch faces[i].source {
            case .detected, .refined, .tile, .tentative:
                guard let scores = faces[i].observation.attributeScores else { break }
                // A jump of the box (a tracker hand-over at a cut, say) may mean another person:
                // their eyes start a new baseline.
                if let last = state.lastBounds, Self.jumped(from: last, to: faces[i].observation.bounds) {
                    state.leftBaseline = EyeBaseline()
                    state.rightBaseline = EyeBaseline()
                }
                state.lastBounds = faces[i].observation.bounds
                let left = eyeClosed(scores.leftEyeOpenness, previous: state.leftClosed, baseline: &state.leftBaseline,
                                     tracked: id != nil)
                let right = eyeClosed(scores.rightEyeOpenness, previous: state.rightClosed, baseline: &state.rightBaseline,
                                      tracked: id != nil)
                let smile = decide(scores.smile, previous: state.smiling,
                                   on: thresholds.smileAbove, off: thresholds.smileEndsBelow)
                state.leftClosed = left ?? state.leftClosed
                state.rightClosed = right ?? state.rightClosed
                state.smiling = smile ?? state.smiling
                Self.set(&faces[i], leftClosed: left, rightClosed: right, smiling: smile)
            case .predicted:
                Self.set(&faces[i], leftClosed: state.leftClosed, rightClosed: state.rightClosed, smiling: state.smiling)
            }
            state.lastFrame = frame
            if let id { states[id] = state }
        }
        if frame % forgetAfter == 0 { states = states.filter { frame - $0.value.lastFrame < forgetAfter } }
    }

    /// The closed flag of one eye: on the relative band once the track's baseline has enough
    /// history (and is itself above the absolute closed edge, so a track whose eyes were closed from
    /// its start stays on the absolute band), on the absolute band otherwise; updates the baseline.
    private func eyeClosed(_ openness: Double?, previous: Bool?, baseline: inout EyeBaseline, tracked: Bool) -> Bool? {
        guard let openness, openness.isFinite else { return nil }
        let t = thresholds
        let typical = baseline.typical
        let relative = tracked && t.eyeHistoryFrames > 0 && baseline.count >= t.eyeHistoryFrames && typical > t.eyeClosedBelow
        // "On" means closed, so the scores are negated to read "higher is on".
        let closed = relative
            ? decide(-openness / typical, previous: previous, on: -t.eyeRelativeClosedBelow, off: -t.eyeRelativeOpenAbove)
            : decide(-openness, previous: previous, on: -t.eyeClosedBelow, off: -t.eyeOpenAbove)
        // Until the relative band applies, every measurement goes in (the median copes with a blink),
        // so an eye the absolute band calls closed (a narrow eye, say) still builds a baseline.
        if tracked { baseline.update(openness, closed: relative && closed == true) }
        return closed
    }

    /// True when `next` is not a plausible next position of the face in `last`: its centre moved by
    /// more than half the box width or its width changed by more than 15 % (a face does not grow or
    /// shrink that fast between two frames).
    public static func jumped(from last: Rect, to next: Rect) -> Bool {
        let ratio = next.width / max(last.width, 1e-9)
        return last.center.distance(to: next.center) > last.width / 2 || ratio < 1 / 1.15 || ratio > 1.15
    }

    /// The flag for `score` (higher means "on"): on above `on`, off below `off`, unchanged between
    /// when there is a previous flag, the band's middle otherwise; `nil` without a score.
    private func decide(_ score: Double?, previous: Bool?, on: Double, off: Double) -> Bool? {
        guard let score, score.isFinite else { return nil }
        if score > on { return true }
        if score < off { return false }
        return previous ?? (score > (on + off) / 2)
    }

    /// Writes the flags on the reported and the displayed observation.
    private static func set(_ face: inout TrackedFace, leftClosed: Bool?, rightClosed: Bool?, smiling: Bool?) {
        face.observation.leftEyeClosed = leftClosed
        face.observation.rightEyeClosed = rightClosed
        face.observation.hasSmile = smiling
        face.display.leftEyeClosed = leftClosed
        face.display.rightEyeClosed = rightClosed
        face.display.hasSmile = smiling
    }
}
