import Dispatch

/// A value that lives on one serial queue: the state of a serial stage or of a lane (a tracker, an
/// encoder, a detector with its scratch memory). The box may be handed to any thread, its value
/// is only touched on `queue`, and debug builds check that on every access (as NIO's
/// `NIOLoopBound` checks its event loop). This is the pipeline's one `@unchecked Sendable`.
final class QueueBound<Value>: @unchecked Sendable {
    /// The serial queue the value belongs to.
    let queue: DispatchQueue
    private var value: Value

    init(_ value: Value, queue: DispatchQueue) {
        self.value = value
        self.queue = queue
    }

    /// Runs `body` on the value; call on `queue` (checked in debug builds).
    func withValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
        return try body(&value)
    }

    /// Runs `body` on the value later, on `queue`, after the work submitted before it.
    func async(_ body: @escaping @Sendable (inout Value) -> Void) {
        queue.async { self.withValue(body) }
    }

    /// Runs `body` on the value on `queue` and waits for it (never from `queue` itself).
    func sync<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try queue.sync { try withValue(body) }
    }
}
