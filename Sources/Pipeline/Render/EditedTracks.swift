import FaceCore

/// `facetrack apply-edits TRACKS EDITS -o OUT`: the tracks file with a review's edits applied,
/// written in its own format. A CSV keeps its columns and every field the edits do not change
/// (track IDs, `person`, `mask`; `person` and `mask` are added at the end when an edit needs
/// them); MOTChallenge text has no such columns, so only drop, split and join apply to it.
package enum EditedTracks {
    /// What was written.
    package struct Result: Sendable {
        package var rowsRead = 0
        package var rowsWritten = 0
        package var tracks = 0
    }

    /// Applies `edits` to `tracks` and writes `output` (a temporary file renamed on success).
    package static func write(tracks: String, edits: String, output: String) throws -> Result {
        var file = try TrackFile(path: tracks, keepingFields: true)
        let review = try TrackEdits(path: edits)
        let rowsRead = file.rows.count
        try review.apply(to: &file.rows)
        if file.format == .mot, let edit = review.edits.first(where: {
            switch $0 {
            case .drop, .split, .join: return false
            default: return true
            }
        }) {
            throw RenderError(path: edits, reason: "\(edit) needs a person or mask column, which MOTChallenge text (\(tracks)) "
                + "does not have: apply it to the CSV of process --csv")
        }
        let out = try BufferedTextFile(path: output, inputs: [tracks, edits])
        var header = file.header
        if file.format == .csv {
            for name in ["person", "mask"] where !header.contains(name) && file.rows.contains(where: {
                name == "person" ? $0.person != nil : $0.mask != nil
            }) {
                header.append(name)
            }
            out.buffer += header.map(TrackCSVWriter.quoted).joined(separator: ",") + "\n"
        }
        let trackColumn = header.firstIndex(of: "track_id"), personColumn = header.firstIndex(of: "person")
        let maskColumn = header.firstIndex(of: "mask")
        for row in file.rows {
            var fields = row.fields
            if file.format == .mot {
                fields[1] = row.trackID.map(String.init) ?? "-1"
                out.buffer += fields.joined(separator: ",") + "\n"
            } else {
                while fields.count < header.count { fields.append("") }
                if let trackColumn { fields[trackColumn] = row.trackID.map(String.init) ?? "" }
                if let personColumn { fields[personColumn] = row.person ?? "" }
                if let maskColumn { fields[maskColumn] = row.mask?.rawValue ?? "" }
                out.buffer += fields.map(TrackCSVWriter.quoted).joined(separator: ",") + "\n"
            }
            try out.flushIfFull()
        }
        try out.finish()
        return Result(rowsRead: rowsRead, rowsWritten: file.rows.count, tracks: Set(file.rows.compactMap(\.trackID)).count)
    }
}
