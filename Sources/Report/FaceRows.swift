import Foundation
import FaceCore

/// One face on one frame, as the report needs it (a tracks CSV row, or a face of a running job).
package struct FaceRow: Sendable, Equatable {
    /// Frame index.
    package var frame: Int
    /// Presentation time in seconds.
    package var time: Double
    /// The track; nil for a face no track owns.
    package var trackID: Int?
    /// The face box in upright-frame pixels.
    package var box: Rect
    /// Detector confidence.
    package var confidence: Double
    /// True when the tracker filled the frame in (source `predicted`), false for a detection.
    package var predicted: Bool
    /// Smiling, when measured.
    package var smiling: Bool?
    /// Both eyes closed (either eye when only one is known), when measured.
    package var eyesClosed: Bool?
    /// Head turn left/right in degrees, when measured.
    package var yaw: Double?
    /// Identity label (the `person` column), when filled.
    package var person: String?

    /// Creates a row.
    package init(frame: Int, time: Double, trackID: Int?, box: Rect, confidence: Double, predicted: Bool = false,
                 smiling: Bool? = nil, eyesClosed: Bool? = nil, yaw: Double? = nil, person: String? = nil) {
        self.frame = frame
        self.time = time
        self.trackID = trackID
        self.box = box
        self.confidence = confidence
        self.predicted = predicted
        self.smiling = smiling
        self.eyesClosed = eyesClosed
        self.yaw = yaw
        self.person = person
    }
}

/// The rows of a tracks CSV (`facetrack process --csv`).
package struct FaceRows: Sendable {
    /// Columns a tracks CSV must have.
    package static let requiredColumns = ["frame", "time", "track_id", "x", "y", "width", "height", "confidence"]

    /// The file read.
    package let path: String
    /// Face rows in file order (rows with an empty box, which list a frame without faces, are left out).
    package let rows: [FaceRow]
    /// Whether the file has a `person` column.
    package let hasPersonColumn: Bool
    /// The lowest and highest frame index listed (faces or not); -1 for none.
    package let firstFrame: Int, lastFrame: Int
    /// The earliest and latest time listed (0 for none; negative when the video's clock starts below zero).
    package let firstTime: Double, lastTime: Double

    /// Rows made in code.
    package init(path: String = "<memory>", rows: [FaceRow], hasPersonColumn: Bool = false) {
        self.path = path
        self.rows = rows
        self.hasPersonColumn = hasPersonColumn
        firstFrame = rows.map(\.frame).min() ?? -1
        lastFrame = rows.map(\.frame).max() ?? -1
        firstTime = rows.map(\.time).min() ?? 0
        lastTime = rows.map(\.time).max() ?? 0
    }

    /// Reads a tracks CSV; one-line errors name the file, the line and the column.
    package init(path: String) throws {
        var csv = try CSVReader(path: path)
        try self.init(reading: &csv)
    }

    /// Reads the records of an open CSV.
    package init(reading csv: inout CSVReader) throws {
        // `facetrack detect` writes the same columns after an `image` one, with no tracks: say so
        // rather than draw an empty page.
        if csv.header.first == "image" {
            throw ReportError.unreadable(csv.path, reason: "a facetrack detect CSV (faces per image, no tracks); "
                                             + "report takes the tracks CSV of facetrack process --csv")
        }
        try csv.require(Self.requiredColumns)
        let header = csv
        func c(_ name: String) -> Int? { header.column(name) }
        let frameColumn = c("frame"), timeColumn = c("time"), trackColumn = c("track_id")
        let xColumn = c("x"), yColumn = c("y"), widthColumn = c("width"), heightColumn = c("height")
        let confidenceColumn = c("confidence"), sourceColumn = c("source"), smileColumn = c("has_smile")
        let leftClosedColumn = c("left_eye_closed"), rightClosedColumn = c("right_eye_closed"), yawColumn = c("yaw")
        let personColumn = c("person")
        var rows: [FaceRow] = []
        var firstFrame = Int.max, lastFrame = -1
        var firstTime = Double.infinity, lastTime = -Double.infinity
        var people: [String: String] = [:]  // one String per name, shared by its rows
        while csv.next() {
            guard let frame = try csv.int(frameColumn, "frame"), frame >= 0 else {
                throw ReportError.badRow(csv.path, line: csv.line, reason: "frame must be a whole number >= 0")
            }
            guard let time = try csv.double(timeColumn, "time") else {
                throw ReportError.badRow(csv.path, line: csv.line, reason: "time is empty")
            }
            firstFrame = min(firstFrame, frame)
            lastFrame = max(lastFrame, frame)
            firstTime = min(firstTime, time)
            lastTime = max(lastTime, time)
            if csv.isEmpty(xColumn) && csv.isEmpty(widthColumn) && csv.isEmpty(trackColumn) { continue }
            guard let x = try csv.double(xColumn, "x"), let y = try csv.double(yColumn, "y"),
                  let width = try csv.double(widthColumn, "width"), let height = try csv.double(heightColumn, "height"),
                  width >= 0, height >= 0 else {
                throw ReportError.badRow(csv.path, line: csv.line, reason: "x, y, width and height must all be numbers (sizes >= 0)")
            }
            var row = FaceRow(frame: frame, time: time, trackID: try csv.int(trackColumn, "track_id"),
                              box: Rect(x: x, y: y, width: width, height: height),
                              confidence: try csv.double(confidenceColumn, "confidence") ?? 1)
            if let sourceColumn, !csv.isEmpty(sourceColumn) {
                let source = csv.string(sourceColumn)
                // Truth files mark faces too hidden to count as `ignore`: not a sighting of the track.
                if source == "ignore" { continue }
                row.predicted = source == "predicted"
            }
            if let smileColumn, !csv.isEmpty(smileColumn) { row.smiling = csv.string(smileColumn) == "1" }
            let left = csv.isEmpty(leftClosedColumn) ? nil : csv.string(leftClosedColumn!) == "1"
            let right = csv.isEmpty(rightClosedColumn) ? nil : csv.string(rightClosedColumn!) == "1"
            if left != nil || right != nil { row.eyesClosed = (left ?? true) && (right ?? true) }
            row.yaw = try csv.double(yawColumn, "yaw")
            if let personColumn, !csv.isEmpty(personColumn) {
                let name = csv.string(personColumn).trimmingCharacters(in: .whitespaces)
                if people[name] == nil { people[name] = name }
                row.person = people[name]
            }
            rows.append(row)
        }
        path = csv.path
        self.rows = rows
        hasPersonColumn = personColumn != nil
        self.firstFrame = lastFrame < 0 ? -1 : firstFrame
        self.lastFrame = lastFrame
        self.firstTime = lastFrame < 0 ? 0 : firstTime
        self.lastTime = lastFrame < 0 ? 0 : lastTime
    }
}
