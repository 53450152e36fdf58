import Dispatch

/// Bounds the items between the first stage and the last, so memory stays flat however long the
/// input: `admit()` before an item enters (waits while `limit` are in), `release()` when it has
/// left the last stage; `waitForAll()` returns once every admitted item was released.
final class InFlightLimit: Sendable {
    /// The most items in flight at once.
    let limit: Int
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()

    init(_ limit: Int) {
        self.limit = max(1, limit)
        slots = DispatchSemaphore(value: self.limit)
    }

    /// Waits for a free slot and takes it.
    func admit() {
        slots.wait()
        group.enter()
    }

    /// Gives a slot back.
    func release() {
        slots.signal()
        group.leave()
    }

    /// Waits until every admitted item was released.
    func waitForAll() { group.wait() }
}
