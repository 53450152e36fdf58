/// Finds faces in an upright BGRA frame, like Core Image's `CIDetector` of type face.
///
/// One instance is used by one thread at a time (detectors keep scratch memory between calls);
/// the pipeline makes one instance per worker through `DetectionSettings.makeDetector`.
public protocol FaceDetector: AnyObject {
    /// Short lower-case name, as given to `--detector`.
    var name: String { get }

    /// The faces in `image`, most confident first. An image with no face, or too small to hold
    /// one, gives an empty array; a failure that should stop the run throws.
    func detect(in image: BGRAImage) throws -> [FaceObservation]

    /// The faces in each of `images`, in order: for each the same faces `detect(in:)` finds in it
    /// alone. The network detectors run images of one input size as one batch (crops of one frame,
    /// say), so each layer's weights are read once per batch instead of once per image.
    func detect(in images: [BGRAImage]) throws -> [[FaceObservation]]
}

extension FaceDetector {
    /// One image after another.
    public func detect(in images: [BGRAImage]) throws -> [[FaceObservation]] {
        try images.map { try detect(in: $0) }
    }
}

/// How accurate (and slow) a detector should be, as `CIDetectorAccuracyLow` / `High`.
public enum DetectorAccuracy: String, Sendable, CaseIterable {
    /// Faster, for close and mid-range faces.
    case low
    /// Slower, finds smaller faces.
    case high
}
