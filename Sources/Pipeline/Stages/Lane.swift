import Dispatch
import FaceCore
import MediaIO
import Synchronization

/// One worker of the parallel stages: a serial queue with its own converter, detector and analyzer.
///
/// `@unchecked Sendable`: the converter, detector and analyzer keep C pointers and scratch memory
/// that are only used on `queue`, by one piece of work at a time (`LanePool`).
final class Lane: @unchecked Sendable {
    let queue: DispatchQueue
    let converter = PixelConverter()
    let sampler = FrameSampler()
    let detector: FaceDetector?
    let analyzer: FaceAnalyzer?
    /// Only touched on `queue`; read after the run.
    var invalidDetections = 0

    init(index: Int, detector: FaceDetector?, analyzer: FaceAnalyzer?) {
        queue = DispatchQueue(label: "facetrack.lane.\(index)")
        self.detector = detector
        self.analyzer = analyzer
    }
}

/// Hands work to whichever lane is free, the earliest frame's work first. Frames cost unevenly
/// (a whole-frame pass costs ten frames of crops): a lane that finishes early takes the next
/// piece of work instead of waiting for its turn, and a keyframe started ahead of time fills the
/// gaps between the frames that are due. Lanes hold identical detectors, so which lane runs a
/// piece of work does not change its result.
final class LanePool: Sendable {
    private struct Waiting {
        var frame: Int
        var work: @Sendable (Lane) -> Void
    }

    private struct State {
        var free: [Lane]
        var waiting: [Waiting] = []

        /// The waiting work of the earliest frame (the first submitted among equals).
        mutating func take() -> (@Sendable (Lane) -> Void)? {
            guard var best = waiting.indices.first else { return nil }
            for i in waiting.indices where waiting[i].frame < waiting[best].frame { best = i }
            return waiting.remove(at: best).work
        }
    }

    private let state: Mutex<State>

    init(_ lanes: [Lane]) {
        state = Mutex(State(free: lanes.reversed()))
    }

    /// Runs `work` for frame `frame` on a free lane, or on the first lane to come free when no
    /// earlier frame's work is waiting.
    func submit(frame: Int, _ work: @escaping @Sendable (Lane) -> Void) {
        let lane = state.withLock { state -> Lane? in
            if let lane = state.free.popLast() { return lane }
            state.waiting.append(Waiting(frame: frame, work: work))
            return nil
        }
        if let lane { start(work, on: lane) }
    }

    private func start(_ work: @escaping @Sendable (Lane) -> Void, on lane: Lane) {
        lane.queue.async { [self] in
            work(lane)
            let more = state.withLock { state -> (@Sendable (Lane) -> Void)? in
                if let work = state.take() { return work }
                state.free.append(lane)
                return nil
            }
            if let more { start(more, on: lane) }
        }
    }
}

/// What a parallel stage shares: runs its work for each frame on a free lane, then puts the
/// frames back in order for the next stage.
struct LaneDispatch: Sendable {
    private let pool: LanePool
    private let state: RunState
    private let inOrder: Reorderer<FrameJob>

    init(pool: LanePool, state: RunState, next: FrameStage) {
        self.pool = pool
        self.state = state
        inOrder = Reorderer { next.accept($0) }
    }

    /// Runs `work` (unless the run failed) on a free lane, then hands the frame on in order.
    func run(_ job: FrameJob, _ work: @escaping @Sendable (FrameJob, Lane) throws -> Void) {
        pool.submit(frame: job.index) { [state, inOrder] lane in
            state.attempt { try work(job, lane) }
            inOrder.submit(job, index: job.index)
        }
    }
}
