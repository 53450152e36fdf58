/// A failure writing a tracking output file; the description is one line naming the file.
public enum TrackOutputError: Error, CustomStringConvertible, Equatable {
    /// The temporary file beside the target could not be created.
    case cannotCreate(path: String, reason: String)
    /// Writing to the temporary file failed.
    case cannotWrite(path: String, reason: String)
    /// The finished temporary file could not be renamed onto the target.
    case cannotRename(path: String, reason: String)
    /// The summary could not be encoded as JSON.
    case cannotEncode(path: String, reason: String)
    /// The writer was used after `finish()`.
    case alreadyFinished(path: String)

    /// One line: the file and what went wrong.
    public var description: String {
        switch self {
        case let .cannotCreate(path, reason): return "\(path): cannot create file: \(reason)"
        case let .cannotWrite(path, reason): return "\(path): cannot write: \(reason)"
        case let .cannotRename(path, reason): return "\(path): cannot move the finished file into place: \(reason)"
        case let .cannotEncode(path, reason): return "\(path): cannot encode the summary: \(reason)"
        case let .alreadyFinished(path): return "\(path): written after it was finished"
        }
    }
}
