import FaceCore

/// Refuses detector output no real picture gives: a damaged or wrong model file (one the sha256
/// table does not know, such as a user's `--models` folder) loads and then "finds" thousands of
/// faces in every frame. Stopping with a clear error beats writing millions of rows.
enum DetectorOutputCheck {
    /// More faces than any crowd shot holds after merging overlapping boxes.
    static let maxFacesPerFrame = 1000

    /// Throws when `faces` (valid boxes of frame `frame`) cannot be a detector's real answer.
    static func check(_ faces: [FaceObservation], frame: Int, detector: String) throws {
        if faces.count > maxFacesPerFrame {
            throw DetectorOutputError(detector: detector, frame: frame, count: faces.count)
        }
    }
}

/// Detector output that shows a broken model.
struct DetectorOutputError: Error, CustomStringConvertible {
    let detector: String
    let frame: Int
    let count: Int
    var description: String {
        "the \(detector) detector reported \(count) faces in frame \(frame) (more than \(DetectorOutputCheck.maxFacesPerFrame)): "
            + "its model file is likely damaged; run scripts/setup to download it again"
    }
}
