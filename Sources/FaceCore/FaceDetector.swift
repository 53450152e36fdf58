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

/// Options shared by the detectors; each detector reads the ones it understands.
package struct DetectorConfiguration: Sendable {
    /// `--accuracy`: picks a detector or a variant of one when set.
    package var accuracy: DetectorAccuracy?
    /// `--threshold`: minimum confidence; `nil` means the detector's own default.
    package var threshold: Double?
    /// `--min-face-size`: faces whose shorter side is below this many pixels are dropped.
    package var minFaceSize: Double
    /// `--model`: a detector-specific variant name (for BlazeFace: `short` or `full`).
    package var model: String?
    /// `--input-size`: longer side fed to a network that accepts free sizes.
    package var inputSize: Int?
    /// `--cascade`: a cascade file for the Viola-Jones detector.
    package var cascadePath: String?
    /// Where model files are looked up.
    package var models: ModelLocator

    /// Creates a configuration with every option at its default.
    package init(accuracy: DetectorAccuracy? = nil, threshold: Double? = nil, minFaceSize: Double = 0,
                model: String? = nil, inputSize: Int? = nil, cascadePath: String? = nil,
                models: ModelLocator = ModelLocator()) {
        self.accuracy = accuracy
        self.threshold = threshold
        self.minFaceSize = minFaceSize
        self.model = model
        self.inputSize = inputSize
        self.cascadePath = cascadePath
        self.models = models
    }
}
