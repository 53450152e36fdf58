/// Reads the protocol-buffer wire format (varints, 32/64-bit words, length-delimited fields)
/// with every access bounds-checked: bad bytes throw `ProtobufError`, they never trap.
struct ProtobufReader {
    /// One field of a message: its number, wire type and either a varint/word value or the
    /// byte range of its payload (length-delimited fields).
    struct Field {
        let number: Int
        let wireType: Int
        /// The value of varint (0), 64-bit (1) and 32-bit (5) fields.
        let value: UInt64
        /// The payload of length-delimited (2) fields; empty otherwise.
        let range: Range<Int>
    }

    static let varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5

    let bytes: ModelBytes

    /// The fields of the message stored in `range`, in file order.
    func fields(in range: Range<Int>) throws -> [Field] {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw ProtobufError.truncated(offset: range.upperBound)
        }
        var fields: [Field] = []
        var at = range.lowerBound
        while at < range.upperBound {
            let start = at
            let key = try readVarint(&at, end: range.upperBound)
            let wireType = Int(key & 7), number = Int(truncatingIfNeeded: key >> 3)
            guard number > 0 else { throw ProtobufError.badWireType(wireType, offset: start) }
            switch wireType {
            case Self.varint:
                fields.append(Field(number: number, wireType: wireType, value: try readVarint(&at, end: range.upperBound),
                                    range: at..<at))
            case Self.fixed64, Self.fixed32:
                let size = wireType == Self.fixed64 ? 8 : 4
                guard range.upperBound - at >= size else { throw ProtobufError.truncated(offset: at) }
                var value: UInt64 = 0
                for index in 0..<size { value |= UInt64(bytes[at + index]) << (8 * UInt64(index)) }
                at += size
                fields.append(Field(number: number, wireType: wireType, value: value, range: at..<at))
            case Self.lengthDelimited:
                let length = try readVarint(&at, end: range.upperBound)
                guard length <= UInt64(range.upperBound - at) else { throw ProtobufError.truncated(offset: at) }
                let end = at + Int(length)
                fields.append(Field(number: number, wireType: wireType, value: length, range: at..<end))
                at = end
            default:
                throw ProtobufError.badWireType(wireType, offset: start)
            }
        }
        return fields
    }

    /// The UTF-8 string of a length-delimited field.
    func string(_ field: Field) throws -> String {
        try expect(field, ProtobufReader.lengthDelimited)
        guard let text = String(validating: bytes[field.range], as: UTF8.self) else {
            throw ProtobufError.badString(offset: field.range.lowerBound)
        }
        return text
    }

    /// The integers of a repeated int64/int32 field, packed (one length-delimited field) or not.
    func integers(_ field: Field) throws -> [Int64] {
        if field.wireType == Self.varint { return [Int64(bitPattern: field.value)] }
        try expect(field, ProtobufReader.lengthDelimited)
        var values: [Int64] = []
        var at = field.range.lowerBound
        while at < field.range.upperBound {
            values.append(Int64(bitPattern: try readVarint(&at, end: field.range.upperBound)))
        }
        return values
    }

    /// The floats of a repeated float field, packed or not.
    func floats(_ field: Field) throws -> [Float] {
        if field.wireType == Self.fixed32 { return [Float(bitPattern: UInt32(truncatingIfNeeded: field.value))] }
        try expect(field, ProtobufReader.lengthDelimited)
        return try littleEndianFloats(field.range)
    }

    /// `range` read as little-endian float32 values (raw tensor data).
    func littleEndianFloats(_ range: Range<Int>) throws -> [Float] {
        guard range.count % 4 == 0, range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw ProtobufError.truncated(offset: range.upperBound)
        }
        return bytes.littleEndianFloats(range)
    }

    /// `range` read as little-endian int64 values (raw tensor data).
    func littleEndianInt64s(_ range: Range<Int>) throws -> [Int64] {
        guard range.count % 8 == 0 else { throw ProtobufError.truncated(offset: range.upperBound) }
        return stride(from: range.lowerBound, to: range.upperBound, by: 8).map { at in
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(bytes[at + index]) << (8 * UInt64(index)) }
            return Int64(bitPattern: value)
        }
    }

    /// Checks a field's wire type.
    func expect(_ field: Field, _ wireType: Int) throws {
        guard field.wireType == wireType else {
            throw ProtobufError.unexpectedWireType(field: field.number, wireType: field.wireType)
        }
    }

    private func readVarint(_ at: inout Int, end: Int) throws -> UInt64 {
        let start = at
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard at < end else { throw ProtobufError.truncated(offset: at) }
            guard shift < 70 else { throw ProtobufError.badVarint(offset: start) }
            let byte = bytes[at]
            at += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }
}
