/// Why a report cannot be made, or a tracks file read (`CSVReader`): one line naming the file.
package enum ReportError: Error, CustomStringConvertible, Sendable {
    /// The file cannot be read.
    case unreadable(String, reason: String)
    /// The file is empty or has no header.
    case empty(String)
    /// Required columns are missing.
    case missingColumns(String, [String])
    /// A row cannot be read.
    case badRow(String, line: Int, reason: String)
    /// A field's value is outside what any real file holds (`ValueBounds`).
    case badValue(String, line: Int, column: Int, reason: String)
    /// The tracks and the video do not belong together.
    case mismatch(csv: String, video: String, reason: String)
    /// A results file line is not a batch record.
    case badRecord(String, line: Int, reason: String)

    /// One line for the user.
    package var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read (\(reason))"
        case .empty(let path): return "\(path): empty file, expected a tracks CSV with a header row"
        case let .missingColumns(path, columns):
            return "\(path): missing column\(columns.count == 1 ? "" : "s") \(columns.joined(separator: ", ")) "
                + "(a tracks CSV from facetrack process --csv needs \(FaceRows.requiredColumns.joined(separator: ",")))"
        case let .badRow(path, line, reason): return "\(path): line \(line): \(reason)"
        case let .badValue(path, line, column, reason): return "\(path): line \(line), column \(column): \(reason)"
        case let .mismatch(csv, video, reason): return "\(csv): does not match the video \(video): \(reason)"
        case let .badRecord(path, line, reason): return "\(path): line \(line): \(reason)"
        }
    }
}
