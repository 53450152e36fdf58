import Synchronization

/// One activation arena for networks that never run at once (a `ResizableNetwork`'s input sizes
/// on one thread): each network plans its tensors from the arena's start, so the planned sizes
/// cost the largest of them, not their sum. Growing it gives later networks a new, larger block;
/// networks planned on an older block keep theirs alive until they go (`ResizableNetwork` drops
/// them when the arena grows).
package final class SharedArena {
    /// The arena's current block: what networks planned from now on use.
    package private(set) var block: ArenaBlock?

    package init() {}

    /// A block of at least `floats` floats: the current one when it is large enough.
    func block(floats: Int) throws(NeuralRuntimeError) -> ArenaBlock {
        if let block, block.floatCount >= floats { return block }
        let made = try ArenaBlock(floats: floats)
        block = made
        return made
    }
}

/// One allocated activation arena, counted in `NetworkMemory.arenas` while it lives.
package final class ArenaBlock {
    let storage = FloatStorage()
    let start: UnsafeMutablePointer<Float>
    /// Floats in the block.
    package let floatCount: Int

    init(floats: Int) throws(NeuralRuntimeError) {
        start = try storage.allocateOrThrow(floats)
        floatCount = floats
        NetworkMemory.arenas.add(floats * MemoryLayout<Float>.size)
    }

    deinit { NetworkMemory.arenas.add(-floatCount * MemoryLayout<Float>.size) }
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
