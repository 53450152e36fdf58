import FaceTrack

/// The detector options shared by `process`, `detect` and `batch`, and the `DetectionSettings` they make.
struct DetectorOptions: OptionGroup {
    static let detector = Option.choice(
        "--detector", "NAME", from: DetectorKind.names,
        help: "face detector: \(DetectorKind.names.joined(separator: ", ")) (default: \(DetectorKind.default().name))")
    static let accuracy = Option("--accuracy", "low|high",
                                 help: "like CIDetectorAccuracyLow/High: picks the detector and its variant") { text in
        guard let value = DetectorAccuracy(rawValue: text) else { throw InvalidValue(expected: "choose from low, high") }
        return value
    }
    static let model = Option("--model", "NAME", help: "detector variant (blazeface: short or full)") { text in
        guard let variant = BlazeFaceVariant(rawValue: text.lowercased()) else {
            throw InvalidValue(expected: "choose from \(BlazeFaceVariant.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return variant
    }
    static let threshold = Option<Double>.number(
        "--threshold", in: 0...1,
        help: "confidence a face needs to be reported, anonymised or to continue a track (default: the detector's own)")
    static let detection = Option(
        "--detection", "MODE",
        help: """
        adaptive (default): the whole frame on keyframes, a crop around each tracked face every frame, full-
        resolution tiles in turn; full (the default with --accuracy low): the whole frame at --input-size on
        every --detect-every-th frame
        """) { text in
        guard let mode = DetectionMode(rawValue: text) else {
            throw InvalidValue(expected: "choose from \(DetectionMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return mode
    }
    static let minFaceSize = Option<Double>.number("--min-face-size", "PX", in: 0...100_000,
                                                   help: "drop faces whose shorter side is below PX pixels (default 0)")
    static let maxFaces = Option<Int>.number("--max-faces", in: 1...10_000, help: "keep the N most confident faces per frame")
    static let models = Option.text("--models", "DIR",
                                    help: "folder with the model files (default: $FACETRACK_MODELS, then ./models)")
    static let inputSize = Option<Int>.number(
        "--input-size", in: 32...8192,
        help: "longer side fed to networks that accept any size (centerface: \(CenterFaceSettings().inputSize))")
    static let cascade = Option.text("--cascade", "FILE", help: "cascade XML for the haar detector")

    static let options = [detector.spec, accuracy.spec, model.spec, detection.spec, threshold.spec, minFaceSize.spec,
                          maxFaces.spec, models.spec, inputSize.spec, cascade.spec]

    /// The settings (`detectEvery` stays at 1: it is a tracking option).
    let settings: DetectionSettings

    init(_ arguments: ParsedArguments) throws {
        let accuracy = try arguments.value(Self.accuracy)
        var kind = try arguments.value(Self.detector).map { DetectorKind(name: $0, accuracy: accuracy)! }
            ?? DetectorKind.default(accuracy: accuracy)
        // An option of another detector would be ignored: say so instead.
        for (option, owner) in [(Self.model.spec, "blazeface"), (Self.inputSize.spec, "centerface"), (Self.cascade.spec, "haar")]
        where arguments.contains(option) && kind.name != owner {
            throw UsageError("\(option.name) is an option of the \(owner) detector, and this run uses \(kind.name) "
                             + "(--detector \(owner) to use it)")
        }
        switch kind {
        case .centerface(var own):
            if let size = try arguments.value(Self.inputSize) { own.inputSize = size }
            kind = .centerface(own)
        case .blazeface(var own):
            if let model = try arguments.value(Self.model) { own.model = model }
            kind = .blazeface(own)
        case .haar(var own):
            own.cascadePath = try arguments.value(Self.cascade)
            kind = .haar(own)
        case .none:
            break
        }
        settings = DetectionSettings(
            detector: kind, threshold: try arguments.value(Self.threshold),
            minFaceSize: try arguments.value(Self.minFaceSize) ?? 0, maxFaces: try arguments.value(Self.maxFaces),
            mode: try arguments.value(Self.detection) ?? .default(accuracy: accuracy), models: ModelLocator(explicitDirectory: try arguments.value(Self.models)))
    }
}
