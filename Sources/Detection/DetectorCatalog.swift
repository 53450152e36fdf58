import FaceCore

/// The detectors `--detector` can name, and how to build one.
public enum DetectorCatalog {
    /// Every name `--detector` accepts, `none` included.
    public static let names: [String] = ["centerface", "blazeface", "haar", "none"]

    /// The detector used when `--detector` is not given: CenterFace (accurate on small and crowded
    /// faces) unless `--accuracy low` asks for the faster BlazeFace.
    public static func defaultName(accuracy: DetectorAccuracy?) -> String {
        accuracy == .low ? "blazeface" : "centerface"
    }

    /// The confidence threshold a detector uses when `--threshold` is not given.
    public static func defaultThreshold(name: String, configuration: DetectorConfiguration) -> Double {
        switch name {
        case "blazeface": return ((try? BlazeFaceDetector.variant(for: configuration)) ?? .full).defaultThreshold
        case "centerface": return CenterFaceDetector.defaultThreshold
        // OpenCV keeps every group above minNeighbors; confidence only ranks them.
        case "haar": return 0
        default: return 0.5
        }
    }

    /// Builds a detector by name; `nil` for `none`. Throws for an unknown name or a missing model,
    /// so the error shows before any frame is read. `threads` is how many cores one detection may
    /// use (2 or more for still images; 1 in the video pipeline, which runs a detector per core).
    public static func make(name: String, configuration: DetectorConfiguration, threads: Int = 1) throws
        -> FaceDetector? {
        switch name {
        case "none":
            return nil
        case "centerface":
            return try CenterFaceDetector(configuration: configuration, threads: threads)
        case "blazeface":
            return try BlazeFaceDetector(configuration: configuration)
        case "haar":
            var options = HaarCascadeOptions(configuration: configuration)
            options.threads = threads
            return try HaarCascadeDetector(options: options)
        default:
            throw DetectorCatalogError.unknown(name)
        }
    }
}

/// A detector name that the catalog does not know.
public enum DetectorCatalogError: Error, CustomStringConvertible {
    /// `--detector` named something else.
    case unknown(String)

    /// One line for the user.
    public var description: String {
        switch self {
        case .unknown(let name):
            return "unknown detector '\(name)' (choose from: \(DetectorCatalog.names.joined(separator: ", ")))"
        }
    }
}
