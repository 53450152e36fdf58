import FaceCore
import Scheduling
import Synchronization

/// Parallel stage: converts the frame to upright BGRA (only when something will look at the
/// pixels), runs the detector on what the frame's plan asks for (or on the whole frame), merges
/// the passes' faces, and runs the analyzer, on the frame's lane; then back in order.
final class AnalysisStage: FrameStage {
    private let lanes: LaneDispatch
    private let detection: DetectionPlan
    private let pool: ImagePool
    /// Passes run, by kind, and crops or tiles that failed and fell back to a whole-frame pass.
    let counts = Mutex(PassCounts())

    init(lanes: [Lane], detection: DetectionPlan, pool: ImagePool, state: RunState, next: FrameStage) {
        self.lanes = LaneDispatch(lanes: lanes, state: state, next: next)
        self.detection = detection
        self.pool = pool
    }

    func accept(_ job: FrameJob) {
        lanes.run(job) { [self] job, lane in try analyse(job, lane: lane) }
    }

    private func analyse(_ job: FrameJob, lane: Lane) throws {
        guard let detector = lane.detector, job.index % detection.every == 0 else { return }
        let upright = try job.uprightImage(converter: lane.converter, pool: pool)
        var faces: [FaceObservation]
        if let plan = job.plan {
            faces = try run(plan, on: upright, with: detector, lane: lane)
        } else {
            faces = try detector.detect(in: upright)
            counts.withLock { $0.full += 1 }
        }
        let before = faces.count
        faces.removeAll { !$0.isValid }
        lane.invalidDetections += before - faces.count
        faces.sort { $0.confidence > $1.confidence }
        if let limit = detection.maxFaces, faces.count > limit { faces.removeLast(faces.count - limit) }
        try lane.analyzer?.analyze(&faces, in: upright)
        job.detections = faces
    }

    /// Runs the plan's passes and merges their faces. A crop or tile the detector fails on does
    /// not lose the frame: the whole frame is looked at instead (counted as a fallback).
    private func run(_ plan: FramePlan, on upright: BGRAImage, with detector: FaceDetector, lane: Lane) throws
        -> [FaceObservation] {
        var merger = DetectionMerger(width: upright.width, height: upright.height)
        var ranFull = false, failed = false
        var local = PassCounts()
        for pass in plan.passes {
            if pass.kind == .full {
                merger.add(try detector.detect(in: upright), from: pass)
                ranFull = true
                local.full += 1
                continue
            }
            let picture = pool.acquire(width: pass.pictureWidth, height: pass.pictureHeight)
            defer { pool.release(picture) }
            upright.resample(pass.region, into: picture)
            do {
                merger.add(try detector.detect(in: picture), from: pass)
                if case .tile = pass.kind { local.tiles += 1 } else { local.crops += 1 }
            } catch {
                failed = true
            }
        }
        if failed && !ranFull {
            let whole = ScheduledPass(kind: .full, region: Rect(x: 0, y: 0, width: Double(upright.width), height: Double(upright.height)),
                                      pictureWidth: upright.width, pictureHeight: upright.height)
            merger.add(try detector.detect(in: upright), from: whole)
            local.full += 1
            local.fallbacks += 1
        }
        counts.withLock { $0.add(local) }
        return merger.merged()
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
