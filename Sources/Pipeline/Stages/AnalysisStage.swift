import FaceCore
import Scheduling
import Synchronization

/// Parallel stage: runs the detector on what the frame's plan asks for, each pass on a picture
/// scaled straight from the decoded frame (`FrameSampler`: no full-resolution BGRA copy), merges
/// the passes' faces, and runs the analyzer (which does need the upright frame in BGRA), on a
/// free lane; then back in order.
///
/// Adaptive detection plans a frame in two parts (`DetectionPlanner`, `CropPlanner`): its keyframe
/// and tile start on a free lane as soon as the frame is decoded, its crops once the tracks they
/// follow are known; the part that finishes last merges both.
final class AnalysisStage: FrameStage {
    private let pool: LanePool
    private let state: RunState
    private let inOrder: Reorderer<FrameJob>
    private let detection: DetectionPlan
    private let clock: StageClock
    private let imagePool: ImagePool
    /// Passes run, by kind, and crops or tiles that failed and fell back to a whole-frame pass.
    let counts = Mutex(PassCounts())

    init(lanes: LanePool, detection: DetectionPlan, pool: ImagePool, state: RunState, next: FrameStage) {
        self.pool = lanes
        self.state = state
        inOrder = Reorderer { next.accept($0) }
        clock = state.clock
        self.detection = detection
        imagePool = pool
    }

    /// A frame planned at once (full detection, or no detection on this frame): all on one lane.
    func accept(_ job: FrameJob) {
        let detects = job.index % detection.every == 0
        job.found = FoundFaces(parts: 1)
        run(job, passes: detects ? (job.plan ?? Self.nativePlan(job)).passes : nil)
    }

    /// Adaptive, from the reader: starts the passes planned so far (keyframe, tile), if any; the
    /// rest comes with `acceptRest`.
    func acceptAhead(_ job: FrameJob) {
        let passes = job.plan?.passes ?? []
        job.found = FoundFaces(parts: passes.isEmpty ? 1 : 2)
        if !passes.isEmpty { run(job, passes: passes) }
    }

    /// Adaptive, from the crop planner, with the plan complete: runs the passes `acceptAhead` did
    /// not start (crops, and a whole-frame pass while a track is uncertain).
    func acceptRest(_ job: FrameJob, passes: [ScheduledPass]) {
        run(job, passes: passes)
    }

    /// Runs `passes` (nil: no detection on this frame) on a free lane; the frame's last part
    /// merges every part's faces, analyses them and hands the frame on in order.
    private func run(_ job: FrameJob, passes: [ScheduledPass]?) {
        pool.submit(frame: job.index) { [self] lane in
            var part = FoundFaces.Part()
            if let passes, lane.detector != nil { state.attempt { part = try detect(passes, on: job, lane: lane) } }
            guard let all = job.found!.add(part) else { return }
            state.attempt { try finish(job, all, lane: lane) }
            inOrder.submit(job, index: job.index)
        }
    }

    /// Runs each pass. A crop or tile the detector fails on does not lose the frame: `finish`
    /// looks at the whole frame instead (counted as a fallback).
    private func detect(_ passes: [ScheduledPass], on job: FrameJob, lane: Lane) throws -> FoundFaces.Part {
        var part = FoundFaces.Part()
        part.detected = true
        for pass in passes {
            do {
                part.found.append(try detect(pass, on: job, lane: lane))
                switch pass.kind {
                case .full: part.counts.full += 1
                case .crop: part.counts.crops += 1
                case .tile: part.counts.tiles += 1
                }
            } catch where pass.kind != .full {
                part.failed = true
            }
        }
        return part
    }

    /// Merges the parts' faces (whole-frame pass first, then crops, then tiles: the same order
    /// whichever part finished first), filters and analyses them.
    private func finish(_ job: FrameJob, _ all: FoundFaces.Part, lane: Lane) throws {
        guard all.detected, let detector = lane.detector else { return }
        let plan = job.plan ?? Self.nativePlan(job)
        var local = all.counts
        var merger = DetectionMerger(width: plan.frameWidth, height: plan.frameHeight)
        for found in all.found.sorted(by: { $0.pass.kind.mergeRank < $1.pass.kind.mergeRank }) {
            merger.add(found.faces, from: found.pass)
        }
        if all.failed && local.full == 0, let whole = plan.wholeFrame {
            let found = try detect(whole, on: job, lane: lane)
            merger.add(found.faces, from: found.pass)
            local.full += 1
            local.fallbacks += 1
        }
        counts.withLock { $0.add(local) }
        var faces = merger.merged()
        let before = faces.count
        faces.removeAll { !$0.isValid }
        lane.invalidDetections += before - faces.count
        try DetectorOutputCheck.check(faces, frame: job.index, detector: detector.name)
        faces.sort { $0.confidence > $1.confidence }
        if let limit = detection.maxFaces, faces.count > limit { faces.removeLast(faces.count - limit) }
        if let analyzer = lane.analyzer {
            let upright = try clock.time(.convert) { try job.uprightImage(converter: lane.converter, pool: imagePool) }
            try clock.time(.attributes) { try analyzer.analyze(&faces, in: upright) }
        }
        job.detections = faces
    }

    /// Without a planner (parts built by hand): the whole frame at its own size.
    private static func nativePlan(_ job: FrameJob) -> FramePlan {
        let size = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
        return FramePlan.wholeFrame(width: size.width, height: size.height, pictureWidth: size.width, pictureHeight: size.height,
                                    scale: 1)
    }

    /// One pass: its region scaled straight from the decoded frame, then the detector. The pass
    /// comes back with the region actually sampled (snapped to whole, chroma-aligned pixels).
    private func detect(_ pass: ScheduledPass, on job: FrameJob, lane: Lane) throws -> FoundFaces.Found {
        let picture = imagePool.acquire(width: pass.pictureWidth, height: pass.pictureHeight)
        defer { imagePool.release(picture) }
        var sampled = pass
        sampled.region = try clock.time(.convert) {
            try lane.sampler.sample(job.frame, orientation: job.orientation, region: pass.region, into: picture)
        }
        let faces = try clock.time(.detect) { try lane.detector!.detect(in: picture) }
        return FoundFaces.Found(faces: faces, pass: sampled)
    }
}

/// What one frame's detector passes found, gathered from the parts of its plan that ran on
/// different lanes; the last part to finish gets them all.
final class FoundFaces: Sendable {
    struct Found: Sendable {
        var faces: [FaceObservation]
        /// The pass, with the region actually sampled.
        var pass: ScheduledPass
    }

    struct Part: Sendable {
        var found: [Found] = []
        var counts = PassCounts()
        /// A crop or tile failed.
        var failed = false
        /// The detector ran (false for a frame `--detect-every` skips).
        var detected = false

        mutating func add(_ other: Part) {
            found += other.found
            counts.add(other.counts)
            failed = failed || other.failed
            detected = detected || other.detected
        }
    }

    private let state: Mutex<(gathered: Part, partsLeft: Int)>

    init(parts: Int) {
        state = Mutex((Part(), parts))
    }

    /// Adds one part's results; returns everything when it was the last part.
    func add(_ part: Part) -> Part? {
        state.withLock { state in
            state.gathered.add(part)
            state.partsLeft -= 1
            return state.partsLeft == 0 ? state.gathered : nil
        }
    }
}

private extension ScheduledPass.Kind {
    /// Passes merge whole-frame first, then crops, then tiles.
    var mergeRank: Int {
        switch self {
        case .full: return 0
        case .crop: return 1
        case .tile: return 2
        }
    }
}

/// When and how much the analysis stage detects.
struct DetectionPlan: Sendable {
    /// Detect on every Nth frame (1 = every frame).
    var every: Int
    /// Keep the N most confident faces.
    var maxFaces: Int?
}

/// How many detector passes of each kind a run made.
struct PassCounts: Sendable {
    var full = 0, crops = 0, tiles = 0
    /// Crops or tiles that failed and were replaced by a whole-frame pass.
    var fallbacks = 0

    mutating func add(_ other: PassCounts) {
        full += other.full
        crops += other.crops
        tiles += other.tiles
        fallbacks += other.fallbacks
    }
}
