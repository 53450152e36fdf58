import Synchronization

/// Asks a running job to stop reading: frames already read are finished and every output is
/// closed properly, so the outputs hold the frames done (what Ctrl-C does). Thread-safe.
public final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)

    /// Creates a signal that is not set.
    public init() {}

    /// Sets the signal; safe from any thread, also from a signal handler's queue.
    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// True once `stop()` was called.
    public var isStopped: Bool { stopped.load(ordering: .relaxed) }
}
