import FaceCore
import Foundation
import Report

/// A tracks file as `facetrack render` and `facetrack apply-edits` read it: the CSV of `process
/// --csv` (or a hand-edited one, or another tool's in the same columns, by header name and in any
/// order) or MOTChallenge text (`frame,id,x,y,w,h,conf,...`, frames from 1, no header).
///
/// Read with the report's `CSVReader`, so numbers are bounded the same way and every error is one
/// line naming the file, the line and the column: an unknown column, a missing one, a value that
/// is not a number, a frame beyond the video, a box wholly outside the frame (`check`).
package struct TrackFile: Sendable {
    /// How the file is written.
    package enum Format: Sendable {
        case csv, mot
    }

    /// A per-track choice of the review page (`mask` column: `keep` or `mask`).
    package enum MaskChoice: String, Sendable {
        /// Never anonymised ("keep visible").
        case keep
        /// Always anonymised, even when `--keep`/`--only` would leave it visible ("always mask").
        case mask
    }

    /// One row: a face on a frame, or a frame listed without faces.
    package struct Row: Sendable {
        /// Frame number in the whole video, from 0.
        package var frame: Int
        /// The track; nil for a face no track owns.
        package var trackID: Int?
        /// The face; nil for a row that only lists a frame.
        package var face: FaceObservation?
        /// The `person` column.
        package var person: String?
        /// The `mask` column.
        package var mask: MaskChoice?
        /// The `shot` column (shot index), where present: interpolation never crosses a shot boundary.
        package var shot: Int?
        /// The region the run drew the face's mask in (`mask_x…mask_height`, `--anonymize` runs).
        package var maskRegion: Rect?
        /// The 1-based line of the file.
        package var line: Int
        /// The fields as written (CSV only, when asked for): `apply-edits` writes them back changed
        /// only where an edit says.
        package var fields: [String] = []
    }

    /// The columns of our CSV besides `TrackCSVWriter.columns`: `person` (known people), `shot`
    /// (shot index), the mask region (`--anonymize`) and `mask` (review choices), each at the end.
    package static let extraColumns = ["person", "shot"] + TrackCSVWriter.maskColumns + ["mask"]
    /// Every column a tracks CSV may have.
    package static let knownColumns = TrackCSVWriter.columns + extraColumns
    /// The columns render needs.
    package static let requiredColumns = ["frame", "x", "y", "width", "height"]
    /// The columns MOTChallenge text is read as.
    static let motColumns = ["frame", "track_id", "x", "y", "width", "height", "confidence", "world_x", "world_y", "world_z"]

    /// The file read.
    package let path: String
    /// CSV or MOTChallenge text.
    package let format: Format
    /// The header row (MOT: the columns its fields are read as).
    package let header: [String]
    /// Every row, in file order.
    package var rows: [Row]

    /// Reads `path`; `keepingFields` keeps each row's fields for writing back.
    package init(path: String, keepingFields: Bool = false) throws {
        let data: Data
        do {
            data = try FileBytes.read(path)
        } catch let error as FileReadError {
            throw ReportError.unreadable(path, reason: error.reason)
        }
        try self.init(bytes: [UInt8](data), path: path, keepingFields: keepingFields)
    }

    /// Parses the bytes of a tracks file; `path` names it in errors.
    package init(bytes: [UInt8], path: String, keepingFields: Bool = false) throws {
        self.path = path
        if TrackFile.looksLikeMOT(bytes) {
            format = .mot
            var reader = CSVReader(bytes: bytes, path: path, columns: TrackFile.motColumns)
            header = TrackFile.motColumns
            rows = try TrackFile.readMOT(&reader, keepingFields: keepingFields)
        } else {
            format = .csv
            var reader = try CSVReader(bytes: bytes, path: path)
            header = reader.header
            try TrackFile.checkHeader(reader)
            rows = try TrackFile.readCSV(&reader, keepingFields: keepingFields)
        }
    }

    /// MOTChallenge text starts with a number where a CSV has its header.
    private static func looksLikeMOT(_ bytes: [UInt8]) -> Bool {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x20 { i += 1 }
        return i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39
    }

    /// Unknown, repeated and missing columns are refused, naming the first.
    private static func checkHeader(_ reader: CSVReader) throws {
        if reader.header.first == "image" {
            throw ReportError.badValue(reader.path, line: 1, column: 1,
                                       reason: "a facetrack detect CSV (faces per image, no frames); render takes the tracks "
                                           + "CSV of facetrack process --csv or MOTChallenge text")
        }
        var seen = Set<String>()
        for (i, name) in reader.header.enumerated() {
            guard knownColumns.contains(name) else {
                throw ReportError.badValue(reader.path, line: 1, column: i + 1,
                                           reason: "unknown column '\(name)' (a tracks CSV has \(knownColumns.joined(separator: ",")))")
            }
            guard seen.insert(name).inserted else {
                throw ReportError.badValue(reader.path, line: 1, column: i + 1, reason: "column '\(name)' appears twice")
            }
        }
        let missing = requiredColumns.filter { reader.column($0) == nil }
        if !missing.isEmpty {
            throw ReportError.badRow(reader.path, line: 1, reason: "missing column\(missing.count == 1 ? "" : "s") "
                                         + missing.joined(separator: ", ") + " (needed: \(requiredColumns.joined(separator: ", ")))")
        }
    }

    private static func readCSV(_ csv: inout CSVReader, keepingFields: Bool) throws -> [Row] {
        let header = csv
        func c(_ name: String) -> Int? { header.column(name) }
        let frameColumn = c("frame"), trackColumn = c("track_id"), confidenceColumn = c("confidence")
        let box = [c("x"), c("y"), c("width"), c("height")]
        let smile = c("has_smile"), leftClosed = c("left_eye_closed"), rightClosed = c("right_eye_closed")
        let sourceColumn = c("source"), personColumn = c("person"), shotColumn = c("shot"), maskColumn = c("mask")
        var rows: [Row] = []
        while csv.next() {
            guard let frame = try csv.int(frameColumn, "frame") else {
                throw ReportError.badValue(csv.path, line: csv.line, column: frameColumn! + 1, reason: "frame is empty")
            }
            _ = try csv.double(c("time"), "time")
            var row = Row(frame: frame, trackID: try csv.int(trackColumn, "track_id"), line: csv.line)
            if keepingFields { row.fields = (0..<max(csv.fieldCount, header.header.count)).map { csv.string($0) } }
            if let shotColumn { row.shot = try csv.int(shotColumn, "shot") }
            if let personColumn, !csv.isEmpty(personColumn) { row.person = csv.string(personColumn).trimmingCharacters(in: .whitespaces) }
            if let maskColumn, !csv.isEmpty(maskColumn) {
                let text = csv.string(maskColumn).trimmingCharacters(in: .whitespaces)
                guard let choice = MaskChoice(rawValue: text) else {
                    throw ReportError.badValue(csv.path, line: csv.line, column: maskColumn + 1,
                                               reason: "mask '\(text)' is not keep or mask (or empty)")
                }
                row.mask = choice
            }
            let names = ["x", "y", "width", "height"]
            let values = try zip(box, names).map { try csv.double($0, $1) }
            if values.allSatisfy({ $0 == nil }) {
                if row.trackID == nil { rows.append(row); continue }  // a frame listed without faces
            }
            if let blank = values.firstIndex(where: { $0 == nil }) {
                throw ReportError.badValue(csv.path, line: csv.line, column: box[blank]! + 1,
                                           reason: "\(names[blank]) is empty (a face needs x, y, width and height)")
            }
            var face = FaceObservation(bounds: Rect(x: values[0]!, y: values[1]!, width: values[2]!, height: values[3]!),
                                       confidence: try csv.double(confidenceColumn, "confidence") ?? 1)
            face.leftEye = try point(&csv, "left_eye")
            face.rightEye = try point(&csv, "right_eye")
            face.mouth = try point(&csv, "mouth")
            face.hasSmile = try flag(&csv, smile, "has_smile")
            face.leftEyeClosed = try flag(&csv, leftClosed, "left_eye_closed")
            face.rightEyeClosed = try flag(&csv, rightClosed, "right_eye_closed")
            face.roll = try csv.double(c("roll"), "roll")
            face.yaw = try csv.double(c("yaw"), "yaw")
            let region = try TrackCSVWriter.maskColumns.map { try csv.double(c($0), $0) }
            if let x = region[0], let y = region[1], let width = region[2], let height = region[3] {
                row.maskRegion = Rect(x: x, y: y, width: width, height: height)
            }
            if let sourceColumn, !csv.isEmpty(sourceColumn) {
                let text = csv.string(sourceColumn).trimmingCharacters(in: .whitespaces)
                // A truth file's faces (`truth`, `ignore`) are drawn as found faces.
                guard let source = ObservationSource(rawValue: text) ?? (["truth", "ignore"].contains(text) ? .detected : nil) else {
                    throw ReportError.badValue(csv.path, line: csv.line, column: sourceColumn + 1,
                                               reason: "source '\(text)' is not detected, refined, tile, predicted, tentative, truth or ignore")
                }
                face.source = source
            }
            row.face = face
            rows.append(row)
        }
        return rows
    }

    private static func point(_ csv: inout CSVReader, _ prefix: String) throws -> Point? {
        guard let x = try csv.double(csv.column(prefix + "_x"), prefix + "_x"),
              let y = try csv.double(csv.column(prefix + "_y"), prefix + "_y") else { return nil }
        return Point(x: x, y: y)
    }

    private static func flag(_ csv: inout CSVReader, _ column: Int?, _ name: String) throws -> Bool? {
        guard let column, !csv.isEmpty(column) else { return nil }
        switch csv.string(column).trimmingCharacters(in: .whitespaces) {
        case "1": return true
        case "0": return false
        case let text: throw ReportError.badValue(csv.path, line: csv.line, column: column + 1, reason: "\(name) '\(text)' is not 1 or 0")
        }
    }

    private static func readMOT(_ csv: inout CSVReader, keepingFields: Bool) throws -> [Row] {
        var rows: [Row] = []
        while csv.next() {
            guard csv.fieldCount >= 6 else {
                throw ReportError.badRow(csv.path, line: csv.line,
                                         reason: "\(csv.fieldCount) fields; MOTChallenge text has frame,id,x,y,w,h[,conf,x,y,z]")
            }
            guard let number = try csv.int(0, "frame") else {
                throw ReportError.badValue(csv.path, line: csv.line, column: 1, reason: "frame is empty")
            }
            guard number >= 1 else {
                throw ReportError.badValue(csv.path, line: csv.line, column: 1, reason: "frame '\(number)' (MOTChallenge frames count from 1)")
            }
            // MOTChallenge writes -1 for a detection no track owns.
            let idText = csv.string(1).trimmingCharacters(in: .whitespaces)
            let trackID = idText == "-1" ? nil : try csv.int(1, "track_id")
            var values: [Double] = []
            for (i, name) in ["x", "y", "width", "height"].enumerated() {
                guard let value = try csv.double(2 + i, name) else {
                    throw ReportError.badValue(csv.path, line: csv.line, column: 3 + i, reason: "\(name) is empty")
                }
                values.append(value)
            }
            let confidence = csv.fieldCount > 6 ? try csv.double(6, "confidence") : nil
            var row = Row(frame: number - 1, trackID: trackID,
                          face: FaceObservation(bounds: Rect(x: values[0], y: values[1], width: values[2], height: values[3]),
                                                confidence: confidence ?? 1),
                          line: csv.line)
            if keepingFields { row.fields = (0..<csv.fieldCount).map { csv.string($0) } }
            rows.append(row)
        }
        return rows
    }

    /// The error for a row on a frame the video does not have.
    package func beyondVideo(_ row: Row, frames: Int, video: String) -> ReportError {
        let number = format == .mot ? row.frame + 1 : row.frame
        return ReportError.badValue(path, line: row.line, column: column("frame"),
                                    reason: "frame \(number) is beyond the video (\(video) has \(frames) frames, "
                                        + (format == .mot ? "1-\(frames)" : "0-\(max(0, frames - 1))") + ")")
    }

    /// A column's 1-based number (1 when the file lacks it).
    package func column(_ name: String) -> Int { (header.firstIndex(of: name) ?? 0) + 1 }
}
