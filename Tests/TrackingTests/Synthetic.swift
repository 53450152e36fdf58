import FaceCore
@testable import Tracking

/// A small deterministic random generator (SplitMix64) for synthetic sequences.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in [-amplitude, amplitude].
    mutating func noise(_ amplitude: Double) -> Double { (uniform() * 2 - 1) * amplitude }
}

/// A square face box centred at (cx, cy), with eyes placed inside it.
func face(_ cx: Double, _ cy: Double, size: Double = 60, confidence: Double = 0.9) -> FaceObservation {
    var observation = FaceObservation(bounds: Rect(centerX: cx, centerY: cy, width: size, height: size),
                                      confidence: confidence)
    observation.leftEye = Point(x: cx - size * 0.2, y: cy - size * 0.1)
    observation.rightEye = Point(x: cx + size * 0.2, y: cy - size * 0.1)
    return observation
}

/// Runs `frames` through `tracker` at 30 fps (frame i at time i/30) and returns the rows of each frame.
func feed(_ tracker: Tracker, _ frames: [[FaceObservation]?]) -> [[TrackedFace]] {
    frames.enumerated().map { i, detections in
        tracker.update(frame: i, time: Double(i) / 30, detections: detections)
    }
}

/// The row whose observed box centre is nearest to (x, y), if any.
func row(near x: Double, _ y: Double, in rows: [TrackedFace]) -> TrackedFace? {
    rows.min { a, b in
        a.observation.bounds.center.distance(to: Point(x: x, y: y)) < b.observation.bounds.center.distance(to: Point(x: x, y: y))
    }
}
