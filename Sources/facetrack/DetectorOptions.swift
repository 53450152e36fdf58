import FaceTrack

/// The detector options shared by `process` and `detect`.
struct DetectorOptions: Sendable {
    static let valued: Set<String> = ["--detector", "--accuracy", "--model", "--threshold", "--min-face-size",
                                      "--max-faces", "--models", "--input-size", "--cascade"]
    static let help = """
      --detector NAME       face detector: \(DetectorCatalog.names.joined(separator: ", ")) (default: \(DetectorCatalog.defaultName(accuracy: nil)))
      --accuracy low|high   like CIDetectorAccuracyLow/High: picks the detector and its variant
      --model NAME          detector variant (blazeface: short or full)
      --threshold X         minimum confidence, 0 to 1 (default: the detector's own)
      --min-face-size PX    drop faces whose shorter side is below PX pixels (default 0)
      --max-faces N         keep the N most confident faces per frame
      --models DIR          folder with the model files (default: $FACETRACK_MODELS, then ./models)
      --input-size N        longer side fed to networks that accept any size
      --cascade FILE        cascade XML for the haar detector
    """

    let name: String
    var configuration: DetectorConfiguration
    let maxFaces: Int?
    let userThreshold: Double?

    init(_ arguments: Arguments) throws {
        let accuracy = try arguments.choice("--accuracy", from: DetectorAccuracy.allCases.map(\.rawValue))
            .flatMap(DetectorAccuracy.init(rawValue:))
        name = try arguments.choice("--detector", from: DetectorCatalog.names) ?? DetectorCatalog.defaultName(accuracy: accuracy)
        configuration = DetectorConfiguration(
            accuracy: accuracy,
            threshold: try arguments.double("--threshold", in: 0...1),
            minFaceSize: try arguments.double("--min-face-size", in: 0...100_000) ?? 0,
            model: arguments.string("--model"),
            inputSize: try arguments.int("--input-size", in: 32...8192),
            cascadePath: arguments.string("--cascade"),
            models: ModelLocator(explicitDirectory: arguments.string("--models")))
        maxFaces = try arguments.int("--max-faces", in: 1...10_000)
        userThreshold = configuration.threshold
    }

    /// The confidence threshold the user asked for, or the detector's default.
    var effectiveThreshold: Double {
        userThreshold ?? DetectorCatalog.defaultThreshold(name: name, configuration: configuration)
    }

    /// Builds one detector, or `nil` for `none`; throws a one-line error for a missing model.
    func makeDetector() throws -> FaceDetector? {
        try DetectorCatalog.make(name: name, configuration: configuration)
    }
}
