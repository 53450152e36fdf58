import Foundation

/// Puts items that finish out of order back into index order.
///
/// `submit` may be called from any thread; `emit` is called for index 0, 1, 2… in order, under
/// the reorderer's lock, so whatever `emit` enqueues on a serial queue stays in order.
final class Reorderer<Item>: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [Int: Item] = [:]
    private var next = 0
    private let emit: (Item) -> Void

    init(emit: @escaping (Item) -> Void) {
        self.emit = emit
    }

    func submit(_ item: Item, index: Int) {
        lock.lock()
        defer { lock.unlock() }
        waiting[index] = item
        while let ready = waiting.removeValue(forKey: next) {
            next += 1
            emit(ready)
        }
    }
}
