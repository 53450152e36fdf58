import Dispatch

/// The end of the line: gives the frame's pictures back, counts it, reports progress and lets
/// the decoder read one more frame.
final class FinishStage: FrameStage {
    private let pool: ImagePool
    private let state: RunState
    private let inFlight: DispatchSemaphore
    private let group: DispatchGroup
    private let progress: (@Sendable (Int) -> Void)?

    init(pool: ImagePool, state: RunState, inFlight: DispatchSemaphore, group: DispatchGroup,
         progress: (@Sendable (Int) -> Void)?) {
        self.pool = pool
        self.state = state
        self.inFlight = inFlight
        self.group = group
        self.progress = progress
    }

    func accept(_ job: FrameJob) {
        job.recycle(into: pool)
        let done = state.frameFinished(time: job.time)
        progress?(done)
        inFlight.signal()
        group.leave()
    }
}
