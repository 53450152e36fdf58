import Foundation

/// Convolution weights packed for the micro-kernel, shared by the networks one graph is planned
/// into for different input sizes (`ResizableNetwork`) and by the detectors of a run's lanes
/// (`LoadedModel`): packing depends on the filter and the kernel path, never on the input's height
/// and width, so it is done once per step, not once per size or thread. Thread-safe: packing
/// happens under a lock while a network is planned; packed buffers are only read after.
package final class PackedWeights: @unchecked Sendable {
    /// Guards the fields below.
    private let lock = NSLock()
    private let storage = FloatStorage()
    private var packed: [Int: UnsafePointer<Float>] = [:]
    private var packedCount = 0

    package init() {}

    /// Floats packed so far (every step's weights once the first network is planned).
    var floatCount: Int { lock.withLock { packedCount } }

    /// The packed weights of step `step`: `count` floats that `pack` fills the first time.
    func weights(step: Int, count: Int, pack: (UnsafeMutablePointer<Float>) -> Void) -> UnsafePointer<Float> {
        lock.withLock {
            if let found = packed[step] { return found }
            let buffer = storage.allocate(count)
            packedCount += count
            pack(buffer)
            packed[step] = UnsafePointer(buffer)
            return UnsafePointer(buffer)
        }
    }
}
