import Dispatch
import Synchronization

/// Bounds the items between the first stage and the last, so memory stays flat however long the
/// input: `admit()` before an item enters (waits while `limit` are in), `release()` when it has
/// left the last stage; `waitForAll()` returns once every admitted item was released.
final class InFlightLimit: Sendable {
    /// The most items in flight at once.
    let limit: Int
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private let count = Mutex<(now: Int, peak: Int)>((0, 0))

    /// The most items that were in flight at once so far (`--stats`).
    var peak: Int { count.withLock { $0.peak } }

    init(_ limit: Int) {
        self.limit = max(1, limit)
        slots = DispatchSemaphore(value: self.limit)
    }

    /// Waits for a free slot and takes it.
    func admit() {
        slots.wait()
        group.enter()
        count.withLock { count in
            count.now += 1
            count.peak = max(count.peak, count.now)
        }
    }

    /// Gives a slot back.
    func release() {
        count.withLock { $0.now -= 1 }
        slots.signal()
        group.leave()
    }

    /// Waits until every admitted item was released.
    func waitForAll() { group.wait() }
}
