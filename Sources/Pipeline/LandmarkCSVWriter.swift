import FaceCore
import Foundation

/// Writes the dense landmarks of every detected face (`--landmarks FILE`): CSV with the columns
/// `frame,track_id,point,x,y` (a leading `image` column for still images), one row per point,
/// pixels in the upright frame with 2 decimals. Only rows the detector measured (source
/// `detected`) with landmarks are written; predicted rows have none. Written under a temporary
/// name and renamed by `finish()`, like the tracks CSV.
public final class LandmarkCSVWriter {
    /// The columns after the optional `image` column, in order.
    public static let columns = ["frame", "track_id", "point", "x", "y"]

    private let file: BufferedTextFile
    private let includesImage: Bool

    /// Opens `path` (or standard output when "-") and writes the header; throws a one-line error
    /// when the path cannot be written or names one of `inputs`.
    public init(path: String, inputs: [String] = [], includesImage: Bool = false) throws {
        self.includesImage = includesImage
        file = try BufferedTextFile(path: path, inputs: inputs)
        file.buffer += ((includesImage ? ["image"] : []) + Self.columns).joined(separator: ",") + "\n"
    }

    /// Appends the landmark rows of one frame (or one image, whose path fills the `image` column).
    public func write(frame: Int, faces: [TrackedFace], image: String? = nil) throws {
        let prefix = includesImage ? TrackCSVWriter.quoted(image ?? "") + "," : ""
        for face in faces where face.source == .detected {
            guard let points = face.observation.landmarks else { continue }
            let head = prefix + "\(frame),\(face.trackID.map(String.init) ?? ""),"
            for (index, point) in points.enumerated() {
                file.buffer += head + "\(index)," + TrackCSVWriter.fixed(point.x, 2) + ","
                    + TrackCSVWriter.fixed(point.y, 2) + "\n"
            }
            try file.flushIfFull()
        }
    }

    /// Writes what is buffered, closes the file and renames it into place.
    public func finish() throws {
        try file.finish()
    }
}
