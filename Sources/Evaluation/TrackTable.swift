import FaceCore
import Foundation

/// The faces of a tracks CSV (as `facetrack process --csv` writes) or a truth CSV, grouped by frame.
///
/// Required columns: frame, track_id, x, y, width, height, confidence; the eye and mouth columns
/// and the mask region (`mask_x…mask_height`) are read when present, and a `source` of `ignore` marks a truth face no evaluation counts; other
/// columns are ignored. A row whose box fields are all empty lists a frame without
/// faces (truth files list every frame of a clip that way).
public struct TrackTable: Sendable {
    /// The file it was read from (for messages).
    public let path: String
    /// Every face row, in file order.
    public let rows: [TrackRow]
    /// Every frame the file lists, with or without faces.
    public let frames: Set<Int>
    /// The first line listing each frame (for messages).
    public let firstLine: [Int: Int]
    /// Each frame's time in seconds, where the file gives one.
    public let times: [Int: Double]

    /// The columns a table must have.
    public static let requiredColumns = ["frame", "track_id", "x", "y", "width", "height", "confidence"]

    /// A table made in code.
    public init(path: String = "<memory>", rows: [TrackRow], frames: Set<Int>? = nil, firstLine: [Int: Int] = [:],
                times: [Int: Double] = [:]) {
        self.path = path
        self.times = times
        self.rows = rows
        self.frames = frames ?? Set(rows.map(\.frame))
        var lines = firstLine
        for row in rows where lines[row.frame] == nil { lines[row.frame] = row.line }
        self.firstLine = lines
    }

    /// Reads a CSV file. `requireIDs` (for truth files) makes an empty track_id an error.
    public static func load(path: String, requireIDs: Bool = false) throws -> TrackTable {
        // Any dialect: a BOM, CRLF or CR line endings; "-" reads standard input.
        let text: String
        do {
            text = try TextReader.read(path)
        } catch let error as TextReaderError {
            throw EvaluationError.unreadable(path, reason: error.reason)
        }
        return try parse(text, path: path, requireIDs: requireIDs)
    }

    /// Parses CSV text; `path` names it in errors.
    public static func parse(_ text: String, path: String, requireIDs: Bool = false) throws -> TrackTable {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" })
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let headerLine = lines.first, !headerLine.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw EvaluationError.empty(path)
        }
        let header = fields(of: headerLine).map { $0.trimmingCharacters(in: .whitespaces) }
        var index: [String: Int] = [:]
        for (i, name) in header.enumerated() where index[name] == nil { index[name] = i }
        let missing = requiredColumns.filter { index[$0] == nil }
        guard missing.isEmpty else { throw EvaluationError.missingColumns(path, missing) }

        var rows: [TrackRow] = []
        var frames = Set<Int>()
        var firstLine: [Int: Int] = [:]
        var times: [Int: Double] = [:]
        var identities = Set<FrameTrack>()
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { continue }
            let values = fields(of: line)
            guard values.count == header.count else {
                throw EvaluationError.badRow(path, line: number, reason: "\(values.count) fields, the header has \(header.count)")
            }
            let reader = FieldReader(values: values, index: index, path: path, line: number)
            guard let frame = try reader.int("frame"), frame >= 0 else {
                throw EvaluationError.badRow(path, line: number, reason: "frame must be a whole number >= 0")
            }
            if frames.insert(frame).inserted { firstLine[frame] = number }
            if let time = try reader.double("time") {
                if let earlier = times[frame], abs(earlier - time) > 1e-6 {
                    throw EvaluationError.badRow(path, line: number, reason: "frame \(frame) has time \(time), an earlier row says \(earlier)")
                }
                times[frame] = time
            }
            let boxFields = ["x", "y", "width", "height"].map { reader.text($0) }
            if boxFields.allSatisfy(\.isEmpty) && reader.text("track_id").isEmpty { continue }
            guard let x = try reader.double("x"), let y = try reader.double("y"),
                  let width = try reader.double("width"), let height = try reader.double("height") else {
                throw EvaluationError.badRow(path, line: number, reason: "x, y, width and height must all be given")
            }
            guard width >= 0, height >= 0 else {
                throw EvaluationError.badRow(path, line: number, reason: "negative box size \(width) x \(height)")
            }
            let trackID = try reader.int("track_id")
            if requireIDs && trackID == nil {
                throw EvaluationError.badRow(path, line: number, reason: "track_id is empty (truth rows need one)")
            }
            if let trackID, !identities.insert(FrameTrack(frame: frame, track: trackID)).inserted {
                throw EvaluationError.badRow(path, line: number, reason: "track_id \(trackID) appears twice in frame \(frame)")
            }
            let confidence = try reader.double("confidence") ?? 1
            rows.append(TrackRow(frame: frame, trackID: trackID, box: Rect(x: x, y: y, width: width, height: height),
                                 confidence: confidence, leftEye: try reader.point("left_eye"),
                                 rightEye: try reader.point("right_eye"), line: number,
                                 ignored: reader.text("source") == "ignore"))
            rows[rows.count - 1].mouth = try reader.point("mouth")
            if let x = try reader.double("mask_x"), let y = try reader.double("mask_y"),
               let width = try reader.double("mask_width"), let height = try reader.double("mask_height") {
                rows[rows.count - 1].mask = Rect(x: x, y: y, width: width, height: height)
            }
        }
        return TrackTable(path: path, rows: rows, frames: frames, firstLine: firstLine, times: times)
    }

    /// The rows grouped by frame.
    public func rowsByFrame() -> [Int: [TrackRow]] {
        Dictionary(grouping: rows, by: \.frame)
    }

    /// Splits one CSV line into fields (RFC 4180 quotes; a trailing carriage return is dropped).
    static func fields(of line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = line.makeIterator()
        var pending = characters.next()
        while let c = pending {
            pending = characters.next()
            if quoted {
                if c == "\"" {
                    if pending == "\"" { field.append("\""); pending = characters.next() } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else if c != "\r" {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }
}

/// A frame index and a track ID.
private struct FrameTrack: Hashable {
    let frame: Int
    let track: Int
}

/// Typed access to the fields of one row, with errors naming file, line and column.
private struct FieldReader {
    let values: [String]
    let index: [String: Int]
    let path: String
    let line: Int

    func text(_ column: String) -> String {
        guard let i = index[column], i < values.count else { return "" }
        return values[i].trimmingCharacters(in: .whitespaces)
    }

    func int(_ column: String) throws -> Int? {
        let value = text(column)
        if value.isEmpty { return nil }
        guard let number = Int(value) else {
            throw EvaluationError.badValue(path, line: line, column: (index[column] ?? 0) + 1,
                                           reason: "\(column) '\(value)' is not a whole number")
        }
        try checkRange(Double(number), column, value)
        return number
    }

    /// Refuses a value outside its column's range (`ValueBounds`), naming line and column.
    private func checkRange(_ number: Double, _ column: String, _ value: String) throws {
        guard let bounds = ValueBounds.range(ofColumn: column), !bounds.range.contains(number) else { return }
        throw EvaluationError.badValue(path, line: line, column: (index[column] ?? 0) + 1,
                                       reason: ValueBounds.outOfRange(column: column, text: value))
    }

    func double(_ column: String) throws -> Double? {
        let value = text(column)
        if value.isEmpty { return nil }
        guard let number = Double(value), number.isFinite else {
            throw EvaluationError.badValue(path, line: line, column: (index[column] ?? 0) + 1,
                                           reason: "\(column) '\(value)' is not a number")
        }
        try checkRange(number, column, value)
        return number
    }

    func point(_ prefix: String) throws -> Point? {
        guard let x = try double(prefix + "_x"), let y = try double(prefix + "_y") else { return nil }
        return Point(x: x, y: y)
    }
}
