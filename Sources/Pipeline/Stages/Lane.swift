import Dispatch
import FaceCore
import MediaIO

/// One worker of the parallel stages: a serial queue with its own converter, detector and analyzer.
/// Frame `i` goes to lane `i % count` in every parallel stage.
///
/// `@unchecked Sendable`: the converter, detector and analyzer keep C pointers and scratch memory
/// that are only used on `queue`.
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

/// What a parallel stage shares: runs its work for each frame on that frame's lane, then puts
/// the frames back in order for the next stage.
struct LaneDispatch: Sendable {
    private let lanes: [Lane]
    private let state: RunState
    private let inOrder: Reorderer<FrameJob>

    init(lanes: [Lane], state: RunState, next: FrameStage) {
        self.lanes = lanes
        self.state = state
        inOrder = Reorderer { next.accept($0) }
    }

    /// Runs `work` (unless the run failed) on frame `job.index % lanes` of the lanes, then hands the frame on in order.
    func run(_ job: FrameJob, _ work: @escaping @Sendable (FrameJob, Lane) throws -> Void) {
        let lane = lanes[job.index % lanes.count]
        lane.queue.async { [state, inOrder] in
            state.attempt { try work(job, lane) }
            inOrder.submit(job, index: job.index)
        }
    }
}
