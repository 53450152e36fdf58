import FaceCore

/// Which face detector runs, with the settings only that detector has.
public enum DetectorKind: Sendable, Equatable {
    /// CenterFace: accurate, small faces and crowds (the default, `--accuracy high`).
    case centerface(CenterFaceSettings = CenterFaceSettings())
    /// MediaPipe BlazeFace: fast, close and mid-range faces (`--accuracy low`).
    case blazeface(BlazeFaceSettings = BlazeFaceSettings())
    /// OpenCV's Viola-Jones cascades: classic, no model file.
    case haar(HaarSettings = HaarSettings())
    /// No detection: the pipeline alone.
    case none

    /// The `--detector` names, in help order.
    public static let names = ["centerface", "blazeface", "haar", "none"]

    /// The detector `--accuracy` picks when `--detector` is not given (`CIDetectorAccuracyLow` / `High`).
    public static func `default`(accuracy: DetectorAccuracy? = nil) -> DetectorKind {
        accuracy == .low ? .blazeface() : .centerface()
    }

    /// The kind for a `--detector` name with each detector's settings for `accuracy`; `nil` for an unknown name.
    public init?(name: String, accuracy: DetectorAccuracy? = nil) {
        switch name {
        case "centerface": self = .centerface()
        case "blazeface": self = .blazeface()
        case "haar": self = .haar(HaarSettings(fast: accuracy == .low))
        case "none": self = .none
        default: return nil
        }
    }

    /// The `--detector` name.
    public var name: String {
        switch self {
        case .centerface: return "centerface"
        case .blazeface: return "blazeface"
        case .haar: return "haar"
        case .none: return "none"
        }
    }

    /// The confidence threshold the detector uses when none is given.
    public var defaultThreshold: Double {
        switch self {
        case .centerface: return CenterFaceDetector.defaultThreshold
        case .blazeface(let settings): return settings.model.defaultThreshold
        // OpenCV keeps every group above minNeighbors; confidence only ranks them.
        case .haar: return 0
        case .none: return 0.5
        }
    }
}

extension DetectorKind {
    /// The confidence a detection needs to start a track when `--track-threshold` is not given:
    /// 0.5 for CenterFace (measured: docs/scheduling.md), whose reporting threshold (0.2) lets
    /// background patterns through; the reporting threshold for the others, whose defaults are
    /// already strict (BlazeFace) or whose confidence only ranks faces (Haar).
    public var defaultTrackThreshold: Double {
        switch self {
        case .centerface: return 0.5
        default: return defaultThreshold
        }
    }
}

/// Where the detector looks in each frame (`--detection`).
public enum DetectionMode: String, Sendable, CaseIterable {
    /// The scheduler decides per frame: the whole frame on keyframes, a crop around every
    /// tracked face, full-resolution tiles in turn (the default).
    case adaptive
    /// The whole frame at the detector's size on every `detectEvery`-th frame.
    case full

    /// The mode for an accuracy: `full` for low (BlazeFace, whose network takes a fixed square
    /// input, so a crop costs as much as a whole-frame pass; measured in README's "Where and when
    /// the detector looks"), `adaptive` otherwise.
    public static func `default`(accuracy: DetectorAccuracy? = nil) -> DetectionMode {
        accuracy == .low ? .full : .adaptive
    }
}

/// CenterFace's own settings.
public struct CenterFaceSettings: Sendable, Equatable {
    /// Longer side fed to the network (`--input-size`), 32 to 8192.
    public var inputSize: Int
    /// Creates settings; the default input is 640 pixels on the longer side.
    public init(inputSize: Int = 640) { self.inputSize = inputSize }
}

/// BlazeFace's own settings.
public struct BlazeFaceSettings: Sendable, Equatable {
    /// The full-range (default, up to ~5 m) or short-range (selfie distance) model (`--model`).
    public var model: BlazeFaceVariant
    /// Creates settings.
    public init(model: BlazeFaceVariant = .full) { self.model = model }
}

/// The Viola-Jones detector's own settings.
public struct HaarSettings: Sendable, Equatable {
    /// The face cascade file (`--cascade`); `nil` picks OpenCV's by `fast`.
    public var cascadePath: String?
    /// The LBP cascade with a coarser pyramid (`--accuracy low`) instead of the Haar one.
    public var fast: Bool
    /// Creates settings.
    public init(cascadePath: String? = nil, fast: Bool = false) {
        self.cascadePath = cascadePath
        self.fast = fast
    }
}

/// Everything about finding faces in one frame: the detector and the options every detector shares.
public struct DetectionSettings: Sendable, Equatable {
    /// The detector and its own settings.
    public var detector: DetectorKind
    /// Minimum confidence of a reported face (`--threshold`); `nil` is the detector's default.
    public var threshold: Double?
    /// Faces whose shorter side is below this many pixels are dropped (`--min-face-size`).
    public var minFaceSize: Double
    /// Keep only the N most confident faces per frame (`--max-faces`).
    public var maxFaces: Int?
    /// Run the detector on every Nth frame only; the tracker predicts the frames between (`--detect-every`).
    public var detectEvery: Int
    /// Where the detector looks in each frame (`--detection`).
    public var mode: DetectionMode
    /// Where model files are looked up (`--models`).
    public var models: ModelLocator

    /// Creates settings; the defaults are those of `facetrack process`.
    public init(detector: DetectorKind = .default(), threshold: Double? = nil, minFaceSize: Double = 0,
                maxFaces: Int? = nil, detectEvery: Int = 1, mode: DetectionMode = .adaptive,
                models: ModelLocator = ModelLocator()) {
        self.detector = detector
        self.threshold = threshold
        self.minFaceSize = minFaceSize
        self.maxFaces = maxFaces
        self.detectEvery = detectEvery
        self.mode = mode
        self.models = models
    }

    /// The threshold in force: the one given, or the detector's default.
    public var effectiveThreshold: Double { threshold ?? detector.defaultThreshold }

    /// Builds one detector (one per thread), or `nil` for `.none`; throws a one-line error for a
    /// missing or damaged model. `threshold` overrides the reporting threshold (the pipeline asks
    /// for lower-confidence faces to feed the tracker's second pass); `threads` is how many cores
    /// one detection may use (1 in the video pipeline, which runs a detector per core).
    public func makeDetector(threshold override: Double? = nil, threads: Int = 1) throws -> FaceDetector? {
        let threshold = override ?? threshold
        switch detector {
        case .none:
            return nil
        case .centerface(let settings):
            return try CenterFaceDetector(settings: settings, threshold: threshold, minFaceSize: minFaceSize, models: models,
                                          threads: threads)
        case .blazeface(let settings):
            return try BlazeFaceDetector(settings: settings, threshold: threshold, minFaceSize: minFaceSize, models: models)
        case .haar(let settings):
            var options = HaarCascadeOptions(settings: settings, threshold: threshold, minFaceSize: minFaceSize)
            options.threads = threads
            return try HaarCascadeDetector(options: options)
        }
    }
}
