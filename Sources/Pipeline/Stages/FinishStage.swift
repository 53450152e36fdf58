import Synchronization

/// The end of the line: gives the frame's pictures back, counts it, reports progress and lets
/// the reader admit one more frame.
final class FinishStage: Sendable {
    private struct Counts {
        var finished = 0
        var lastTime: Double?
    }

    private let pool: ImagePool
    private let inFlight: InFlightLimit
    private let progress: (@Sendable (Int) -> Void)?
    private let counts = Mutex(Counts())

    init(pool: ImagePool, inFlight: InFlightLimit, progress: (@Sendable (Int) -> Void)?) {
        self.pool = pool
        self.inFlight = inFlight
        self.progress = progress
    }

    func accept(_ job: FrameJob) {
        var job = job
        job.recycle(into: pool)
        let done = counts.withLock {
            $0.finished += 1
            $0.lastTime = max($0.lastTime ?? job.time, job.time)
            return $0.finished
        }
        progress?(done)
        inFlight.release()
    }

    /// The presentation time of the last frame done (the latest), if any.
    var lastTime: Double? { counts.withLock { $0.lastTime } }

    /// Adds the frames done and the last one's time to `summary`.
    func summarize(into summary: inout ProcessingSummary) {
        (summary.frames, summary.lastTime) = counts.withLock { ($0.finished, $0.lastTime) }
    }
}
