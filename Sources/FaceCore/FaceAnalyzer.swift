/// Looks closer at faces a detector found, on the same upright frame: refines landmarks and
/// measures raw attribute scores (like Core Image's smile and eye-blink options).
///
/// Runs in the pipeline's analysis lanes right after detection; one instance per lane (thread),
/// made by a factory, like detectors. Per-track decisions (hysteresis) belong to a
/// `TrackedFaceProcessor` in the serial tracking stage, not here.
public protocol FaceAnalyzer: AnyObject {
    /// Updates `faces` (found in `image`) in place. Faces it cannot analyse are left as they are.
    func analyze(_ faces: inout [FaceObservation], in image: BGRAImage) throws
}

/// Post-processes the tracked faces of each frame in frame order, from one thread (the pipeline's
/// serial tracking stage): for decisions that need track identities, such as hysteresis.
public protocol TrackedFaceProcessor: AnyObject {
    /// Updates the faces reported for frame `frame` in place.
    func process(_ faces: inout [TrackedFace], frame: Int)
}
