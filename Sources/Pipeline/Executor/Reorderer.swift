import Synchronization

/// Puts items that finish out of order back into index order.
///
/// `submit` may be called from any thread; `emit` is called for index `first`, `first + 1`… in
/// order (a segment's frames keep their numbers in the whole video), under the reorderer's lock,
/// so whatever `emit` enqueues on a serial queue stays in order.
final class Reorderer<Item: Sendable>: Sendable {
    private struct State {
        var waiting: [Int: Item] = [:]
        var next: Int
    }

    private let state: Mutex<State>
    private let emit: @Sendable (Item) -> Void

    init(first: Int = 0, emit: @escaping @Sendable (Item) -> Void) {
        state = Mutex(State(next: first))
        self.emit = emit
    }

    func submit(_ item: Item, index: Int) {
        state.withLock { state in
            state.waiting[index] = item
            while let ready = state.waiting.removeValue(forKey: state.next) {
                state.next += 1
                emit(ready)
            }
        }
    }
}
