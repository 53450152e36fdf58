/// Protocol-buffer bytes that cannot be read.
enum ProtobufError: Error, CustomStringConvertible {
    /// A field or length runs past the end of its message.
    case truncated(offset: Int)
    /// A varint longer than ten bytes.
    case badVarint(offset: Int)
    /// A wire type this reader does not know (groups, or garbage).
    case badWireType(Int, offset: Int)
    /// A field has the wrong wire type for what it should hold.
    case unexpectedWireType(field: Int, wireType: Int)
    /// A string field is not UTF-8.
    case badString(offset: Int)

    var description: String {
        switch self {
        case let .truncated(offset): return "message truncated at byte \(offset)"
        case let .badVarint(offset): return "varint too long at byte \(offset)"
        case let .badWireType(type, offset): return "unknown wire type \(type) at byte \(offset)"
        case let .unexpectedWireType(field, type): return "field \(field) has unexpected wire type \(type)"
        case let .badString(offset): return "string at byte \(offset) is not UTF-8"
        }
    }
}
