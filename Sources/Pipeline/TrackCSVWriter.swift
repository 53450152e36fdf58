import FaceCore
import Foundation

/// Writes face tracks as CSV (RFC 4180, header row, one row per face per frame).
///
/// Columns: `frame,time,track_id,x,y,width,height,confidence,left_eye_x,left_eye_y,right_eye_x,
/// right_eye_y,mouth_x,mouth_y,has_smile,left_eye_closed,right_eye_closed,roll,yaw,source`, with a
/// leading `image` column for still images. Coordinates are pixels in the upright frame (2 decimals),
/// `time` is seconds (6 decimals), booleans are 1/0, and a value that is not available is empty.
/// With known people (`--known`) a column `person` holds the name a face was recognised as (empty
/// for a stranger). The last column, `shot`, numbers the frame's shot from 0 (a cut, fade or
/// dissolve starts the next one); it is empty for still images. With `--anonymize` (`includesMask`),
/// `mask_x,mask_y,mask_width,mask_height` follow: the region the face's mask is drawn in before
/// `--mask-scale` (`MaskRegion`: the head, grown while the face is not seen), so that coverage can
/// be measured from the CSV alone.
/// The file is written under a temporary name and renamed by `finish()`.
public final class TrackCSVWriter {
    /// The columns after the optional `image` column, in order; `person` (with known people) and
    /// `shot` follow them.
    public static let columns = ["frame", "time", "track_id", "x", "y", "width", "height", "confidence",
                                 "left_eye_x", "left_eye_y", "right_eye_x", "right_eye_y", "mouth_x", "mouth_y",
                                 "has_smile", "left_eye_closed", "right_eye_closed", "roll", "yaw", "source"]

    private let file: BufferedTextFile
    private let includesImage: Bool
    private let includesPerson: Bool
    private let includesMask: Bool

    /// The mask columns, written last with `--anonymize`.
    public static let maskColumns = ["mask_x", "mask_y", "mask_width", "mask_height"]

    /// Opens `path` (or standard output when `path` is "-") and writes the header; `includesPerson`
    /// adds the `person` column, `includesMask` the mask columns at the end.
    public init(path: String, inputs: [String] = [], includesImage: Bool = false, includesPerson: Bool = false,
                includesMask: Bool = false) throws {
        self.includesImage = includesImage
        self.includesPerson = includesPerson
        self.includesMask = includesMask
        file = try BufferedTextFile(path: path, inputs: inputs)
        file.buffer += ((includesImage ? ["image"] : []) + Self.header(includesPerson: includesPerson, includesMask: includesMask))
            .joined(separator: ",") + "\n"
    }

    /// Every column after the optional `image` column, in order: `columns`, `person` (with known
    /// people), `shot`, the mask columns (with `--anonymize`): what `TrackRowValues` gives, and the keys of `--json`.
    static func header(includesPerson: Bool, includesMask: Bool = false) -> [String] {
        columns + (includesPerson ? ["person"] : []) + ["shot"] + (includesMask ? maskColumns : [])
    }

    /// Appends the rows of one frame (or one image, whose path fills the `image` column).
    public func write(frame: Int, time: Double, faces: [TrackedFace], image: String? = nil) throws {
        for face in faces {
            if includesImage { file.buffer += Self.quoted(image ?? "") + "," }
            TrackRowValues(frame: frame, time: time, face: face).forEach(includesPerson: includesPerson, includesMask: includesMask) { index, value in
                if index > 0 { file.buffer += "," }
                switch value {
                case .number(let text), .word(let text): file.buffer += text
                case .text(let text): file.buffer += Self.quoted(text)
                case .flag(let flag): file.buffer += flag ? "1" : "0"
                case .none: break
                }
            }
            file.buffer += "\n"
        }
        try file.flushIfFull()
    }

    /// Writes what is buffered, closes the file and renames it into place.
    public func finish() throws {
        try file.finish()
    }

    /// A number with a fixed count of decimals, without a negative zero.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "" }
        let text = String(format: "%.\(decimals)f", value)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    /// A field quoted as RFC 4180 asks when it holds a comma, a quote or a line break.
    package static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
