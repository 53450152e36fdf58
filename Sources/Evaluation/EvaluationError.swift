/// A problem with an evaluation input (truth, prediction, manifest); the description is one line
/// naming the file and, where there is one, the line.
public enum EvaluationError: Error, CustomStringConvertible, Equatable {
    /// The file cannot be read.
    case unreadable(String, reason: String)
    /// The file cannot be written.
    case unwritable(String, reason: String)
    /// The file holds nothing, not even a header.
    case empty(String)
    /// The header lacks required columns.
    case missingColumns(String, [String])
    /// A row has a wrong field count, a value of the wrong type, a negative size or a missing ID.
    case badRow(String, line: Int, reason: String)
    /// A field's value is outside what any real file holds (`ValueBounds`).
    case badValue(String, line: Int, column: Int, reason: String)
    /// A prediction names a frame the truth does not list.
    case unknownFrame(String, line: Int, frame: Int, truthFrames: String)
    /// A manifest is not valid JSON or not in the expected shape.
    case badManifest(String, line: Int?, reason: String)

    /// One line naming the file (and line) and the problem.
    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read: \(reason)"
        case let .unwritable(path, reason): return "\(path): cannot write: \(reason)"
        case let .empty(path): return "\(path): empty file (expected a CSV header row)"
        case let .missingColumns(path, names): return "\(path):1: missing column\(names.count == 1 ? "" : "s") \(names.joined(separator: ", "))"
        case let .badRow(path, line, reason): return "\(path):\(line): \(reason)"
        case let .badValue(path, line, column, reason): return "\(path):\(line):\(column): \(reason)"
        case let .unknownFrame(path, line, frame, truthFrames):
            return "\(path):\(line): frame \(frame) is not in the truth (its frames: \(truthFrames))"
        case let .badManifest(path, line, reason): return "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
        }
    }
}
