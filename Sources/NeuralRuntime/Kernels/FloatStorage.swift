/// Owns the float buffers of one network (arena, packed weights, tables) and frees them together.
///
/// Kernels keep raw pointers into these buffers; the network keeps the storage alive as long
/// as the kernels, so the pointers never dangle.
final class FloatStorage {
    private var blocks: [UnsafeMutablePointer<Float>] = []

    /// A zeroed buffer of `count` floats (at least one), 64-byte aligned.
    func allocate(_ count: Int) -> UnsafeMutablePointer<Float> {
        let capacity = max(count, 1) + 16
        let raw = UnsafeMutableRawPointer.allocate(byteCount: capacity * 4, alignment: 64)
        let pointer = raw.initializeMemory(as: Float.self, repeating: 0, count: capacity)
        blocks.append(pointer)
        return pointer
    }

    /// A buffer holding a copy of `values`.
    func copy(_ values: [Float]) -> UnsafeMutablePointer<Float> {
        let pointer = allocate(values.count)
        values.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { pointer.update(from: base, count: values.count) }
        }
        return pointer
    }

    /// The first `count` of `values` (zeros when nil) followed by zeros up to `paddedCount`.
    func paddedCopy(_ values: [Float]?, count: Int, paddedCount: Int) -> UnsafePointer<Float> {
        let pointer = allocate(paddedCount)
        if let values { for index in 0..<min(count, values.count) { pointer[index] = values[index] } }
        return UnsafePointer(pointer)
    }

    deinit {
        for block in blocks { UnsafeMutableRawPointer(block).deallocate() }
    }
}
