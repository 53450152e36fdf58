/// One table inside a FlatBuffer: fields are looked up by their id in the schema.
struct FlatTable {
    let reader: FlatBufferReader
    let position: Int
    let vtable: Int
    let vtableSize: Int

    /// The absolute offset of field `id`, or nil when the field is absent (default value).
    func fieldOffset(_ id: Int) throws -> Int? {
        let entry = 4 + 2 * id
        guard entry + 2 <= vtableSize else { return nil }
        let relative = Int(try reader.u16(vtable + entry))
        return relative == 0 ? nil : position + relative
    }

    func int8(_ id: Int, default value: Int) throws -> Int {
        guard let at = try fieldOffset(id) else { return value }
        return Int(Int8(bitPattern: try reader.u8(at)))
    }

    func uint8(_ id: Int, default value: Int) throws -> Int {
        guard let at = try fieldOffset(id) else { return value }
        return Int(try reader.u8(at))
    }

    func bool(_ id: Int) throws -> Bool { try uint8(id, default: 0) != 0 }

    func int32(_ id: Int, default value: Int) throws -> Int {
        guard let at = try fieldOffset(id) else { return value }
        return Int(try reader.i32(at))
    }

    func uint32(_ id: Int, default value: Int) throws -> Int {
        guard let at = try fieldOffset(id) else { return value }
        return Int(try reader.u32(at))
    }

    func uint64(_ id: Int) throws -> UInt64 {
        guard let at = try fieldOffset(id) else { return 0 }
        return try reader.u64(at)
    }

    /// Follows the offset stored in field `id`.
    private func target(_ id: Int) throws -> Int? {
        guard let at = try fieldOffset(id) else { return nil }
        return at + Int(try reader.u32(at))
    }

    /// A sub-table, or nil when absent.
    func table(_ id: Int) throws -> FlatTable? {
        guard let at = try target(id) else { return nil }
        return try reader.table(at: at)
    }

    /// A vector's element count and the offset of its first element; nil when absent.
    func vector(_ id: Int, elementSize: Int) throws -> (start: Int, count: Int)? {
        guard let at = try target(id) else { return nil }
        let count = Int(try reader.u32(at))
        let (bytes, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow else { throw FlatBufferError.outOfRange(offset: at, count: count, size: reader.bytes.count) }
        try reader.check(at + 4, bytes)
        return (at + 4, count)
    }

    /// A vector of tables (empty when absent).
    func tables(_ id: Int) throws -> [FlatTable] {
        guard let (start, count) = try vector(id, elementSize: 4) else { return [] }
        var result: [FlatTable] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            let slot = start + 4 * i
            result.append(try reader.table(at: slot + Int(try reader.u32(slot))))
        }
        return result
    }

    /// A vector of 32-bit integers (empty when absent).
    func int32s(_ id: Int) throws -> [Int] {
        guard let (start, count) = try vector(id, elementSize: 4) else { return [] }
        return try (0..<count).map { Int(try reader.i32(start + 4 * $0)) }
    }

    /// A string (empty when absent).
    func string(_ id: Int) throws -> String {
        guard let (start, count) = try vector(id, elementSize: 1) else { return "" }
        return String(decoding: reader.bytes[start..<(start + count)], as: UTF8.self)
    }
}
