import FaceCore

/// What is kept of the faces the detector passes found on one picture, the same for a video frame
/// (`AnalysisStage`) and a photo (`StillImageJob`): valid boxes only, never an absurd number
/// (`DetectorOutputCheck`), most confident first, at most `maxFaces`.
struct DetectionFilter: Sendable {
    /// Keep the N most confident faces (`--max-faces`); `nil` keeps all.
    var maxFaces: Int?

    /// Filters `faces` in place and returns how many were dropped as invalid (NaN, infinite or
    /// non-positive boxes); throws when the count shows a broken model.
    func keep(_ faces: inout [FaceObservation], frame: Int, detector: String) throws -> Int {
        let before = faces.count
        faces.removeAll { !$0.isValid }
        let invalid = before - faces.count
        try DetectorOutputCheck.check(faces, frame: frame, detector: detector)
        faces.sort { $0.confidence > $1.confidence }
        if let maxFaces, faces.count > maxFaces { faces.removeLast(faces.count - maxFaces) }
        return invalid
    }
}
