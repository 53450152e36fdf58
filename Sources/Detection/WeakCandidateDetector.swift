import FaceCore

/// A detector that can also say what it nearly took for a face: candidates scoring under its
/// threshold, down to a floor. The close-up rule (`CloseUpRule`) reads them to tell a face too
/// large for the picture, which the detector sees whole only when the frame is shown smaller.
package protocol WeakCandidateDetector: FaceDetector {
    /// The faces `detect(in:)` finds in `image`, and apart the candidates scoring from `floor`
    /// up to the detector's threshold.
    func detect(in image: BGRAImage, weakFrom floor: Double) throws -> (faces: [FaceObservation], weak: [FaceObservation])
}
