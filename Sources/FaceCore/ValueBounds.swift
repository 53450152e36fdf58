/// The ranges every reader of tracks and truth CSVs accepts: wide enough for any real video (a
/// frame index up to ten billion, times within 31 years either side of zero, coordinates within a
/// million pixels), and narrow enough that no value makes a reader or a report allocate, loop or
/// convert beyond what a real file would. A value outside is refused with one line naming the
/// file, the line and the column.
package enum ValueBounds {
    /// Frame indexes.
    package static let frame: ClosedRange<Int> = 0...10_000_000_000
    /// Track IDs (identifiers: their size costs nothing, but they are never negative).
    package static let trackID: ClosedRange<Int> = 0...999_999_999_999_999
    /// Presentation times in seconds.
    package static let time: ClosedRange<Double> = -1e9...1e9
    /// Positions in pixels (boxes, eyes, mouth), which may lie a little outside the frame.
    package static let coordinate: ClosedRange<Double> = -1e6...1e6
    /// Box sizes in pixels.
    package static let size: ClosedRange<Double> = 0...1e6
    /// Detector confidences (and scores of other tools).
    package static let confidence: ClosedRange<Double> = -1e6...1e6
    /// Angles in degrees (roll, yaw).
    package static let angle: ClosedRange<Double> = -360...360

    /// The range of a CSV column by name, with its words for messages; nil for a column with no
    /// numeric range.
    package static func range(ofColumn name: String) -> (range: ClosedRange<Double>, words: String)? {
        switch name {
        case "frame": return (Double(frame.lowerBound)...Double(frame.upperBound), "0 to 1e10")
        case "track_id": return (Double(trackID.lowerBound)...Double(trackID.upperBound), "0 to 999999999999999")
        case "time": return (time, "-1e9 to 1e9 seconds")
        case "x", "y", "left_eye_x", "left_eye_y", "right_eye_x", "right_eye_y", "mouth_x", "mouth_y":
            return (coordinate, "-1e6 to 1e6 pixels")
        case "width", "height": return (size, "0 to 1e6 pixels")
        case "confidence": return (confidence, "-1e6 to 1e6")
        case "roll", "yaw": return (angle, "-360 to 360 degrees")
        default: return nil
        }
    }

    /// The one-line reason for a value outside its column's range: "time '1e20' is out of range
    /// (-1e9 to 1e9 seconds)".
    package static func outOfRange(column name: String, text: String) -> String {
        "\(name) '\(text)' is out of range (\(range(ofColumn: name)?.words ?? "?"))"
    }
}
