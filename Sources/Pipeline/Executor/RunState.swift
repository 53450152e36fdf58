import Synchronization

/// What the stages of one run share: the first failure and the stop request. The first error
/// fails the run (later ones are its consequences): stages skip their work but still hand every
/// item on, so the last stage sees each one and the run can end cleanly.
final class RunState: Sendable {
    private let error = Mutex<Error?>(nil)
    private let stop: StopSignal

    init(stop: StopSignal = StopSignal()) { self.stop = stop }

    /// The error that failed the run, if any.
    var firstError: Error? { error.withLock { $0 } }
    var isFailed: Bool { error.withLock { $0 != nil } }
    /// True once a stop was asked for (SIGINT): no new input is read, what was read is finished.
    var stopRequested: Bool { stop.isStopped }

    /// Keeps the first error; later ones are consequences of it.
    func fail(_ failure: Error) { error.withLock { if $0 == nil { $0 = failure } } }

    /// Runs `work` unless the run has failed; a throw fails the run.
    func attempt(_ work: () throws -> Void) {
        guard !isFailed else { return }
        do { try work() } catch { fail(error) }
    }
}
