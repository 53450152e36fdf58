// Times one `Tracker.update` step with 20 and with 200 moving, noisy faces on a 1920x1080 frame,
// with the default configuration (second pass, smoothing and landmarks on). Detections are made
// beforehand so only the tracker is timed. Usage: tracker-bench [frames]
import BenchmarkTiming
import FaceCore
import Tracking

/// SplitMix64: a small deterministic random generator.
struct Random {
    var state: UInt64
    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    mutating func range(_ low: Double, _ high: Double) -> Double { low + (high - low) * uniform() }
}

/// `frames` frames of `count` faces moving on straight lines that bounce off the frame edges,
/// with ±2 px box noise, 3% misses, confidences 0.3-1 and a false detection now and then.
func makeSequence(faces count: Int, size: Double, frames: Int, seed: UInt64) -> [[FaceObservation]] {
    var random = Random(state: seed)
    let width = 1920.0, height = 1080.0
    // Faces start on a jittered grid so that they do not all overlap at the start.
    let columns = Int((Double(count) * width / height).squareRoot().rounded(.up))
    let rows = (count + columns - 1) / columns
    var positions: [(x: Double, y: Double, vx: Double, vy: Double)] = []
    for k in 0..<count {
        let cellW = width / Double(columns), cellH = height / Double(rows)
        positions.append((x: (Double(k % columns) + 0.5) * cellW + random.range(-5, 5),
                          y: (Double(k / columns) + 0.5) * cellH + random.range(-5, 5),
                          vx: random.range(-2, 2), vy: random.range(-2, 2)))
    }
    var sequence: [[FaceObservation]] = []
    for _ in 0..<frames {
        var detections: [FaceObservation] = []
        for k in 0..<count {
            var p = positions[k]
            p.x += p.vx; p.y += p.vy
            if p.x < size || p.x > width - size { p.vx = -p.vx }
            if p.y < size || p.y > height - size { p.vy = -p.vy }
            positions[k] = p
            if random.uniform() < 0.03 { continue }
            let s = size + random.range(-2, 2)
            var face = FaceObservation(bounds: Rect(centerX: p.x + random.range(-2, 2), centerY: p.y + random.range(-2, 2),
                                                    width: s, height: s), confidence: random.range(0.3, 1))
            face.leftEye = Point(x: p.x - 0.2 * s, y: p.y - 0.1 * s)
            face.rightEye = Point(x: p.x + 0.2 * s, y: p.y - 0.1 * s)
            face.nose = Point(x: p.x, y: p.y + 0.05 * s)
            face.mouth = Point(x: p.x, y: p.y + 0.25 * s)
            detections.append(face)
        }
        if random.uniform() < 0.1 {
            detections.append(FaceObservation(bounds: Rect(x: random.range(0, 1800), y: random.range(0, 1000), width: size, height: size),
                                              confidence: random.range(0.5, 0.7)))
        }
        sequence.append(detections)
    }
    return sequence
}

/// Runs the sequence through a fresh tracker and returns per-frame milliseconds after a warm-up,
/// plus the number of confirmed tracks.
func measure(_ sequence: [[FaceObservation]], warmUp: Int) -> (times: [Double], confirmed: Int) {
    let tracker = Tracker(configuration: TrackerConfiguration(framesPerSecond: 30))
    var times: [Double] = []
    times.reserveCapacity(sequence.count)
    var rowCount = 0
    for (i, detections) in sequence.enumerated() {
        let start = Timing.wallMilliseconds()
        let rows = tracker.update(frame: i, time: Double(i) / 30, detections: detections)
        let end = Timing.wallMilliseconds()
        rowCount &+= rows.count
        if i >= warmUp { times.append(end - start) }
    }
    if rowCount == 0 { print("warning: no rows") }
    return (times, tracker.confirmedTrackCount)
}

func format(_ value: Double) -> String {
    let scaled = (value * 10_000).rounded() / 10_000
    return String(scaled)
}

let frameCount = CommandLine.arguments.count > 1 ? max(100, Int(CommandLine.arguments[1]) ?? 1000) : 1000
for (faces, size, target) in [(20, 100.0, 0.1), (200, 50.0, 2.0)] {
    let sequence = makeSequence(faces: faces, size: size, frames: frameCount, seed: UInt64(faces))
    var best: [Double] = []
    var confirmed = 0
    // Three runs; keep the one with the lowest mean to reduce noise from other processes.
    for _ in 0..<3 {
        let run = measure(sequence, warmUp: 50)
        if best.isEmpty || run.times.reduce(0, +) < best.reduce(0, +) { best = run.times; confirmed = run.confirmed }
    }
    let sorted = best.sorted()
    let mean = best.reduce(0, +) / Double(best.count)
    let median = sorted[sorted.count / 2], p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    // The median is the figure to compare: on shared CPUs the mean and p99 include frames where
    // the process was preempted for a scheduler tick (about 4 ms).
    print("tracker \(faces) faces: median \(format(median)) ms/frame (target <= \(target) ms, "
          + "\(median <= target ? "met" : "MISSED")), mean \(format(mean)), p99 \(format(p99)); "
          + "\(best.count) frames, \(confirmed) tracks confirmed")
}

// Worst case for the assignment: one dense 200 x 200 component (every track overlaps every
// detection), solved directly by the Hungarian method.
do {
    var random = Random(state: 5)
    let n = 200
    let costs = (0..<(n * n)).map { _ in random.uniform() }
    let solver = HungarianSolver()
    var assignment: [Int] = []
    var best = Double.infinity
    for _ in 0..<5 {
        let start = Timing.wallMilliseconds()
        solver.solve(costs: costs, rows: n, columns: n, into: &assignment)
        best = min(best, Timing.wallMilliseconds() - start)
    }
    print("hungarian dense 200x200: \(format(best)) ms (best of 5; only if every box overlaps every other)")
}
