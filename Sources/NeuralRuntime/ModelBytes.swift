import Foundation

/// A model file's bytes, read-only, for the readers: the file mapped (`PROT_READ`, `MAP_PRIVATE`)
/// or, for bytes handed over in memory, one copy. Unmapped or freed with the last reference.
///
/// Why a mapping: the file's pages are the kernel's page cache, mapped in one `MAP_POPULATE` call,
/// where reading the file whole (`read` into fresh memory, then a copy into an array) touched two
/// fresh pages per 4 KB, each cleared by the kernel first (docs/performance.md, "Model files
/// mapped"). The hash and the parsers read the mapping; only the weights the graph keeps are copied.
///
/// Indexing is bounds-checked like an array's: the readers check every offset and throw first,
/// and a read they missed traps instead of reading past the file.
package final class ModelBytes: RandomAccessCollection, @unchecked Sendable {
    // @unchecked: the memory is never written after init and lives as long as the object.
    /// The bytes; empty for an empty file.
    let buffer: UnsafeRawBufferPointer
    private let mapped: Bool

    package var startIndex: Int { 0 }
    package var endIndex: Int { buffer.count }

    package subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < buffer.count, "model file offset \(position) out of range")
        return buffer[position]
    }

    /// A copy of `bytes` (readers' tests, models made in memory).
    package init(_ bytes: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        copy.copyBytes(from: bytes)
        buffer = UnsafeRawBufferPointer(copy)
        mapped = false
    }

    /// The file open as `descriptor` (a regular file), mapped whole; nil with `errno` set when
    /// it cannot be mapped. The caller keeps and closes the descriptor.
    init?(mapping descriptor: Int32, size: Int) {
        mapped = size > 0
        guard size > 0 else {
            buffer = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        // MAP_POPULATE: every page is read (the hash reads them all) — one call instead of a fault per 64 KB.
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { return nil }
        buffer = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        guard let base = buffer.baseAddress else { return }
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: base), buffer.count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    /// The little-endian 32-bit word at `offset`.
    func uint32(at offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset <= buffer.count - 4, "model file offset \(offset) out of range")
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The float32 values stored little-endian in `range` (whose length is a multiple of 4), copied out.
    func littleEndianFloats(_ range: Range<Int>) -> [Float] {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count && range.count % 4 == 0,
                     "model file range \(range) out of range")
        let count = range.count / 4
        return [Float](unsafeUninitializedCapacity: count) { values, initialized in
            #if _endian(little)
            if count > 0 {
                UnsafeMutableRawPointer(values.baseAddress!).copyMemory(from: buffer.baseAddress! + range.lowerBound,
                                                                        byteCount: range.count)
            }
            #else
            for index in 0..<count { values[index] = Float(bitPattern: uint32(at: range.lowerBound + 4 * index)) }
            #endif
            initialized = count
        }
    }
}

/// float32 values stored little-endian in a model file, read in place: weights are copied once,
/// into the graph's layout (transposed), not first into arrays of their own.
struct StoredFloats {
    let bytes: ModelBytes
    /// Where the first value starts, in bytes.
    let start: Int
    let count: Int

    subscript(index: Int) -> Float {
        precondition(index >= 0 && index < count, "value \(index) of \(count)")
        return Float(bitPattern: bytes.uint32(at: start + 4 * index))
    }

    /// Values `range` of these.
    func slice(_ range: Range<Int>) -> StoredFloats {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "values \(range) of \(count)")
        return StoredFloats(bytes: bytes, start: start + 4 * range.lowerBound, count: range.count)
    }

    /// The values copied out.
    var array: [Float] { bytes.littleEndianFloats(start..<(start + 4 * count)) }
}
