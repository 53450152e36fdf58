/// A FlatBuffer that cannot be read.
enum FlatBufferError: Error, CustomStringConvertible {
    /// An offset or length points outside the file.
    case outOfRange(offset: Int, count: Int, size: Int)
    /// A table's vtable is malformed.
    case badTable(Int)

    var description: String {
        switch self {
        case let .outOfRange(offset, count, size):
            return "reads \(count) bytes at offset \(offset) past the end of the \(size)-byte file"
        case let .badTable(position):
            return "malformed table at offset \(position)"
        }
    }
}
