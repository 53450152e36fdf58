import FaceCore
import Scheduling
import Synchronization

/// Parallel stage: runs the detector on what the frame's plan asks for, each pass on a picture
/// scaled straight from the decoded frame (`FrameSampler`: no full-resolution BGRA copy), merges
/// the passes' faces, and runs the analyzer (which does need the upright frame in BGRA), on the
/// frame's lane; then back in order.
final class AnalysisStage: FrameStage {
    private let lanes: LaneDispatch
    private let detection: DetectionPlan
    private let clock: StageClock
    private let pool: ImagePool
    /// Passes run, by kind, and crops or tiles that failed and fell back to a whole-frame pass.
    let counts = Mutex(PassCounts())

    init(lanes: [Lane], detection: DetectionPlan, pool: ImagePool, state: RunState, next: FrameStage) {
        self.lanes = LaneDispatch(lanes: lanes, state: state, next: next)
        clock = state.clock
        self.detection = detection
        self.pool = pool
    }

    func accept(_ job: FrameJob) {
        lanes.run(job) { [self] job, lane in try analyse(job, lane: lane) }
    }

    private func analyse(_ job: FrameJob, lane: Lane) throws {
        guard let detector = lane.detector, job.index % detection.every == 0 else { return }
        var faces = try run(job.plan ?? Self.nativePlan(job), on: job, with: detector, lane: lane)
        let before = faces.count
        faces.removeAll { !$0.isValid }
        lane.invalidDetections += before - faces.count
        try DetectorOutputCheck.check(faces, frame: job.index, detector: detector.name)
        faces.sort { $0.confidence > $1.confidence }
        if let limit = detection.maxFaces, faces.count > limit { faces.removeLast(faces.count - limit) }
        if let analyzer = lane.analyzer {
            let upright = try clock.time(.convert) { try job.uprightImage(converter: lane.converter, pool: pool) }
            try clock.time(.attributes) { try analyzer.analyze(&faces, in: upright) }
        }
        job.detections = faces
    }

    /// Runs the plan's passes and merges their faces. A crop or tile the detector fails on does
    /// not lose the frame: the whole frame is looked at instead (counted as a fallback).
    private func run(_ plan: FramePlan, on job: FrameJob, with detector: FaceDetector, lane: Lane) throws
        -> [FaceObservation] {
        var merger = DetectionMerger(width: plan.frameWidth, height: plan.frameHeight)
        var ranFull = false, failed = false
        var local = PassCounts()
        for pass in plan.passes {
            if pass.kind == .full {
                let (faces, sampled) = try detect(pass, on: job, with: detector, lane: lane)
                merger.add(faces, from: sampled)
                ranFull = true
                local.full += 1
                continue
            }
            do {
                let (faces, sampled) = try detect(pass, on: job, with: detector, lane: lane)
                merger.add(faces, from: sampled)
                if case .tile = pass.kind { local.tiles += 1 } else { local.crops += 1 }
            } catch {
                failed = true
            }
        }
        if failed && !ranFull, let whole = plan.wholeFrame {
            let (faces, sampled) = try detect(whole, on: job, with: detector, lane: lane)
            merger.add(faces, from: sampled)
            local.full += 1
            local.fallbacks += 1
        }
        counts.withLock { $0.add(local) }
        return merger.merged()
    }

    /// Without a planner (parts built by hand): the whole frame at its own size.
    private static func nativePlan(_ job: FrameJob) -> FramePlan {
        let size = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
        return FramePlan.wholeFrame(width: size.width, height: size.height, pictureWidth: size.width, pictureHeight: size.height,
                                    scale: 1)
    }

    /// One pass: its region scaled straight from the decoded frame, then the detector. The pass
    /// comes back with the region actually sampled (snapped to whole, chroma-aligned pixels).
    private func detect(_ pass: ScheduledPass, on job: FrameJob, with detector: FaceDetector, lane: Lane) throws
        -> (faces: [FaceObservation], pass: ScheduledPass) {
        let picture = pool.acquire(width: pass.pictureWidth, height: pass.pictureHeight)
        defer { pool.release(picture) }
        var sampled = pass
        sampled.region = try clock.time(.convert) {
            try lane.sampler.sample(job.frame, orientation: job.orientation, region: pass.region, into: picture)
        }
        return (try clock.time(.detect) { try detector.detect(in: picture) }, sampled)
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
