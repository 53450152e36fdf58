import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns the float buffers of one network (arena, packed weights, tables) and frees them together.
///
/// Kernels keep raw pointers into these buffers; the network keeps the storage alive as long
/// as the kernels, so the pointers never dangle.
final class FloatStorage {
    /// What `calloc` returned, for `free`; the buffers handed out start at the next 64-byte boundary.
    private var blocks: [UnsafeMutableRawPointer] = []
    /// What `mmap` returned and its length, for `munmap` (buffers of `mappedBytes` or more).
    private var mappings: [(start: UnsafeMutableRawPointer, bytes: Int)] = []

    /// From this size a buffer is mapped on its own rather than taken from `calloc`: its zero pages
    /// stay untouched until used whatever the allocator's mmap threshold (`facetrack` raises glibc's
    /// to 64 MiB, and `calloc` clears a reused heap block by writing every page of it).
    static let mappedBytes = 1 << 20
    /// Bytes allocated, counted in `NetworkMemory.all` unless the owner counts them (`counted: false`).
    private(set) var bytes = 0
    private let counted: Bool

    init(counted: Bool = true) {
        self.counted = counted
    }

    /// A zeroed buffer of `count` floats (at least one), 64-byte aligned. A large buffer comes as
    /// fresh zero pages that are only touched when used (a network planned for another input size
    /// no longer faults in and clears its whole arena up front).
    /// Allocation failure ends the program through `FloatStorage.outOfMemory` (the tool prints one
    /// line and removes its temporary files); `allocateOrThrow` throws instead.
    func allocate(_ count: Int) -> UnsafeMutablePointer<Float> {
        do {
            return try allocateOrThrow(count)
        } catch {
            FloatStorage.outOfMemory.withLock { $0 }?(error.description) ?? fatalError(error.description)
        }
    }

    /// As `allocate`, throwing `NeuralRuntimeError.outOfMemory` when the memory cannot be had.
    func allocateOrThrow(_ count: Int) throws(NeuralRuntimeError) -> UnsafeMutablePointer<Float> {
        let capacity = max(count, 1) + 16
        let (floats, overflow) = capacity.multipliedReportingOverflow(by: 4)
        guard !overflow, floats < Int.max - 64, let raw = zeroed(floats + 64) else {
            throw NeuralRuntimeError.outOfMemory(bytes: overflow ? Int.max : floats + 64)
        }
        bytes += floats + 64
        if counted { NetworkMemory.all.add(floats + 64) }
        let aligned = (Int(bitPattern: raw) + 63) & ~63
        return UnsafeMutablePointer<Float>(bitPattern: aligned)!
    }

    /// `bytes` of zeros, mapped on their own from `mappedBytes`, else from `calloc`; nil when the
    /// memory cannot be had.
    private func zeroed(_ bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes >= FloatStorage.mappedBytes else {
            let raw = calloc(bytes, 1)
            if let raw { blocks.append(raw) }
            return raw
        }
        let raw = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let raw, raw != MAP_FAILED else { return nil }
        mappings.append((raw, bytes))
        return raw
    }

    /// What a failed `allocate` calls with its one-line message (the tool installs its own: print,
    /// remove temporary files, exit 1); nil traps.
    package static let outOfMemory = Mutex<(@Sendable (String) -> Never)?>(nil)

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
        for block in blocks { free(block) }
        for mapping in mappings { munmap(mapping.start, mapping.bytes) }
        if counted { NetworkMemory.all.add(-bytes) }
    }
}
