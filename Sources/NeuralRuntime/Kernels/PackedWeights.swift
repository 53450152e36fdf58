/// Convolution weights packed for the micro-kernel, shared by the networks one graph is planned
/// into for different input sizes (`ResizableNetwork`): packing depends on the filter and the
/// kernel path, never on the input's height and width, so it is done once per step, not once per
/// size. Not thread-safe, like the networks that use it.
package final class PackedWeights {
    private let storage = FloatStorage()
    private var packed: [Int: UnsafePointer<Float>] = [:]
    /// Floats packed so far (every step's weights once the first network is planned).
    private(set) var floatCount = 0

    package init() {}

    /// The packed weights of step `step`: `count` floats that `pack` fills the first time.
    func weights(step: Int, count: Int, pack: (UnsafeMutablePointer<Float>) -> Void) -> UnsafePointer<Float> {
        if let found = packed[step] { return found }
        let buffer = storage.allocate(count)
        floatCount += count
        pack(buffer)
        packed[step] = UnsafePointer(buffer)
        return UnsafePointer(buffer)
    }
}
