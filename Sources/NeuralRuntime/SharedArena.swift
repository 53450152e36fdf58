import Synchronization

/// One activation arena for networks that never run at once (a `ResizableNetwork`'s input sizes
/// on one thread): each network plans its tensors from the arena's start, so the planned sizes
/// cost the largest of them, not their sum. Growing it gives later networks a new, larger block;
/// networks planned on an older block keep theirs alive until they go (`ResizableNetwork` drops
/// them when the arena grows).
package final class SharedArena {
    /// The arena's current block: what networks planned from now on use.
    package private(set) var block: ArenaBlock?
    /// The current block for the tensors `run()` keeps in rings of rows (`NeuralNetwork.ringedBlock`).
    package private(set) var ringedBlock: ArenaBlock?

    package init() {}

    /// A block of at least `floats` floats: the current one when it is large enough.
    func block(floats: Int) throws(NeuralRuntimeError) -> ArenaBlock {
        try Self.grow(&block, floats: floats, countedWhenUsed: false)
    }

    /// A block of at least `floats` floats for ringed tensors, counted once a whole-step run touches it.
    func ringedBlock(floats: Int) throws(NeuralRuntimeError) -> ArenaBlock {
        try Self.grow(&ringedBlock, floats: floats, countedWhenUsed: true)
    }

    private static func grow(_ current: inout ArenaBlock?, floats: Int,
                             countedWhenUsed: Bool) throws(NeuralRuntimeError) -> ArenaBlock {
        if let current, current.floatCount >= floats { return current }
        let made = try ArenaBlock(floats: floats, countedWhenUsed: countedWhenUsed)
        current = made
        return made
    }
}

/// One allocated activation arena, counted in `NetworkMemory` (arenas and all) while it lives and
/// is in use. A block only whole-step runs write (`countedWhenUsed`) stays untouched calloc'd
/// pages, no resident memory, until one does, and is counted from then on.
package final class ArenaBlock {
    private let storage = FloatStorage(counted: false)
    let start: UnsafeMutablePointer<Float>
    /// Floats in the block.
    package let floatCount: Int
    private var counted = false

    init(floats: Int, countedWhenUsed: Bool = false) throws(NeuralRuntimeError) {
        start = try storage.allocateOrThrow(floats)
        floatCount = floats
        if !countedWhenUsed { markUsed() }
    }

    /// Counts the block from now on (once). Not thread-safe, like the networks using it.
    func markUsed() {
        guard !counted else { return }
        counted = true
        NetworkMemory.arenas.add(floatCount * MemoryLayout<Float>.size)
        NetworkMemory.all.add(storage.bytes)
    }

    deinit {
        guard counted else { return }
        NetworkMemory.arenas.add(-floatCount * MemoryLayout<Float>.size)
        NetworkMemory.all.add(-storage.bytes)
    }
}

/// Bytes the networks hold, for `--stats`: counted where they are allocated and freed.
package enum NetworkMemory {
    /// Activation arenas (planned per input size, shared within a `ResizableNetwork`).
    package static let arenas = MemoryCounter()
    /// Everything the networks allocate: arenas, packed weights, constant copies, rings of rows.
    package static let all = MemoryCounter()
}

/// A count of live bytes and its peak. Thread-safe.
package final class MemoryCounter: Sendable {
    private let state = Mutex<(live: Int, peak: Int)>((0, 0))

    package init() {}

    /// Adds `bytes` (negative when freed).
    package func add(_ bytes: Int) {
        state.withLock { state in
            state.live += bytes
            state.peak = max(state.peak, state.live)
        }
    }

    package var live: Int { state.withLock { $0.live } }
    package var peak: Int { state.withLock { $0.peak } }

    /// Starts the peak again from what is live now (a run's own peak).
    package func resetPeak() { state.withLock { $0.peak = $0.live } }
}
