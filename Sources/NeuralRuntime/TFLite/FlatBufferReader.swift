/// Bounds-checked reading of a FlatBuffer (the serialisation TFLite files use).
///
/// Every access checks offsets against the buffer and throws `FlatBufferError` instead of
/// reading out of range, so a truncated or corrupted file can never crash the process.
struct FlatBufferReader {
    /// The whole file.
    let bytes: ModelBytes

    /// Wraps a file's bytes.
    init(bytes: ModelBytes) {
        self.bytes = bytes
    }

    /// Wraps a copy of `bytes`.
    init(bytes: [UInt8]) {
        self.init(bytes: ModelBytes(bytes))
    }

    /// Checks that `count` bytes starting at `offset` lie inside the buffer.
    func check(_ offset: Int, _ count: Int) throws {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else {
            throw FlatBufferError.outOfRange(offset: offset, count: count, size: bytes.count)
        }
    }

    func u8(_ offset: Int) throws -> UInt8 {
        try check(offset, 1)
        return bytes[offset]
    }

    func u16(_ offset: Int) throws -> UInt16 {
        try check(offset, 2)
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func u32(_ offset: Int) throws -> UInt32 {
        try check(offset, 4)
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    func i32(_ offset: Int) throws -> Int32 { Int32(bitPattern: try u32(offset)) }

    func u64(_ offset: Int) throws -> UInt64 {
        UInt64(try u32(offset)) | UInt64(try u32(offset + 4)) << 32
    }

    /// The root table of the buffer.
    func root() throws -> FlatTable {
        let position = Int(try u32(0))
        return try table(at: position)
    }

    /// The table starting at `position` (validates its vtable).
    func table(at position: Int) throws -> FlatTable {
        let vtable = position - Int(try i32(position))
        let vtableSize = Int(try u16(vtable))
        guard vtableSize >= 4, vtableSize % 2 == 0 else { throw FlatBufferError.badTable(position) }
        try check(vtable, vtableSize)
        return FlatTable(reader: self, position: position, vtable: vtable, vtableSize: vtableSize)
    }
}
