import Synchronization

/// What the stages of one run share: the first error, the stop request and the counters.
final class RunState: Sendable {
    private struct State {
        var error: Error?
        var finished = 0
        var faces = 0
        var lastTime: Double?
    }

    private let state = Mutex(State())
    private let stop: StopSignal
    /// CPU time by stage (`--stats`).
    let clock = StageClock()

    init(stop: StopSignal) { self.stop = stop }

    var firstError: Error? { state.withLock { $0.error } }
    var isFailed: Bool { state.withLock { $0.error != nil } }
    var stopRequested: Bool { stop.isStopped }
    var shouldStopReading: Bool { stop.isStopped || isFailed }
    var finishedFrames: Int { state.withLock { $0.finished } }
    var faceCount: Int { state.withLock { $0.faces } }
    var lastTime: Double? { state.withLock { $0.lastTime } }

    /// Keeps the first error; later ones are consequences of it.
    func fail(_ error: Error) { state.withLock { if $0.error == nil { $0.error = error } } }
    func addFaces(_ count: Int) { state.withLock { $0.faces += count } }

    /// Counts a finished frame; returns the count so far.
    func frameFinished(time: Double) -> Int {
        state.withLock {
            $0.finished += 1
            $0.lastTime = max($0.lastTime ?? time, time)
            return $0.finished
        }
    }

    /// Runs `work` unless the run has failed; a throw fails the run.
    func attempt(_ work: () throws -> Void) {
        guard !isFailed else { return }
        do { try work() } catch { fail(error) }
    }
}
