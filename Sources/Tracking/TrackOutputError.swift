/// A failure writing a tracking output file; the description is one line naming the file.
public enum TrackOutputError: Error, CustomStringConvertible, Equatable {
    /// The summary could not be encoded as JSON.
    case cannotEncode(path: String, reason: String)

    /// One line: the file and what went wrong.
    public var description: String {
        switch self {
        case let .cannotEncode(path, reason): return "\(path): cannot encode the summary: \(reason)"
        }
    }
}
