import Dispatch
import Synchronization

/// The workers of the parallel stages: one serial queue per lane, each with its own `Worker` (say,
/// a detector and converters that keep scratch memory), used by one piece of work at a time.
///
/// Work goes to whichever lane is free, the earliest item's work first. Items cost unevenly (a
/// whole-frame pass costs many frames of crops): a lane that finishes early takes the next piece
/// of work instead of waiting for its turn. Lanes hold identical workers, so which lane runs a piece
/// of work does not change its result.
final class LanePool<Worker>: Sendable {
    private typealias Work = @Sendable (inout Worker) -> Void

    private struct State {
        var free: [QueueBound<Worker>]
        var waiting: [(item: Int, work: Work)] = []

        /// The waiting work of the earliest item (the first submitted among equals).
        mutating func take() -> Work? {
            guard var best = waiting.indices.first else { return nil }
            for i in waiting.indices where waiting[i].item < waiting[best].item { best = i }
            return waiting.remove(at: best).work
        }
    }

    /// The lanes, in order.
    let lanes: [QueueBound<Worker>]
    private let state: Mutex<State>

    /// One lane per worker; queues are named `label.0`, `label.1`...
    init(_ workers: [Worker], label: String) {
        lanes = workers.enumerated().map { QueueBound($1, queue: DispatchQueue(label: "\(label).\($0)")) }
        state = Mutex(State(free: lanes.reversed()))
    }

    /// Runs `work` for item `item` on a free lane, or on the first lane to come free when no
    /// earlier item's work is waiting.
    func submit(item: Int, _ work: @escaping @Sendable (inout Worker) -> Void) {
        let lane = state.withLock { state -> QueueBound<Worker>? in
            if let lane = state.free.popLast() { return lane }
            state.waiting.append((item, work))
            return nil
        }
        if let lane { start(work, on: lane) }
    }

    /// Waits until the work submitted so far has run (nothing still holds a worker's resources).
    func drain() {
        for lane in lanes { lane.queue.sync {} }
    }

    /// Adds up `count` over the workers (read on each lane's queue; after the work is done).
    func sum(_ count: (Worker) -> Int) -> Int {
        lanes.reduce(0) { total, lane in total + lane.sync { count($0) } }
    }

    private func start(_ work: @escaping Work, on lane: QueueBound<Worker>) {
        lane.async { [self] worker in
            work(&worker)
            let more = state.withLock { state -> Work? in
                if let work = state.take() { return work }
                state.free.append(lane)
                return nil
            }
            if let more { start(more, on: lane) }
        }
    }
}

/// A parallel stage's hand-off: runs each item's work on a free lane, then passes the items on in
/// index order (a `Reorderer`), also after a failure, so the last stage sees every item.
struct InOrderLanes<Worker, Item: Sendable>: Sendable {
    private let pool: LanePool<Worker>
    private let run: RunState
    private let inOrder: Reorderer<Item>

    init(pool: LanePool<Worker>, run: RunState, first: Int = 0, next: @escaping @Sendable (Item) -> Void) {
        self.pool = pool
        self.run = run
        inOrder = Reorderer(first: first, emit: next)
    }

    /// Runs `work` (unless the run failed) on a free lane, then hands the item on in order.
    func submit(_ item: Item, index: Int, _ work: @escaping @Sendable (inout Item, inout Worker) throws -> Void) {
        pool.submit(item: index) { [run, inOrder] worker in
            var item = item
            run.attempt { try work(&item, &worker) }
            inOrder.submit(item, index: index)
        }
    }
}
