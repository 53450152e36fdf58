import FaceCore

/// Turns the raw attribute scores of tracked faces into the `hasSmile` / eye-closed flags, with
/// hysteresis per track (`AttributeThresholds`). Runs in the pipeline's serial tracking stage.
///
/// Detected rows with scores get flags from their score and the track's previous flag; detected
/// rows without scores (face too small, mesh found no face) get no flags and leave the track's
/// state alone. Predicted rows (source `predicted`) keep the track's last known flags (their
/// roll, yaw and refined landmarks are the last measured ones, moved with the box, as the tracker
/// already does). Untracked faces (no ID yet) are decided without history.
public final class AttributeStabilizer: TrackedFaceProcessor {
    /// The thresholds in use.
    public let thresholds: AttributeThresholds

    private struct State {
        var leftClosed: Bool?
        var rightClosed: Bool?
        var smiling: Bool?
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
            case .detected:
                guard let scores = faces[i].observation.attributeScores else { break }
                // Eyes: "on" means closed, so the openness is negated to read "higher is on".
                let left = decide(scores.leftEyeOpenness.map { -$0 }, previous: state.leftClosed,
                                  on: -thresholds.eyeClosedBelow, off: -thresholds.eyeOpenAbove)
                let right = decide(scores.rightEyeOpenness.map { -$0 }, previous: state.rightClosed,
                                   on: -thresholds.eyeClosedBelow, off: -thresholds.eyeOpenAbove)
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
