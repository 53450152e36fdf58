import FaceCore

/// The detectors `--detector` can name, and how to build one.
public enum DetectorCatalog {
    /// Every name `--detector` accepts, `none` included.
    public static let names: [String] = ["blazeface", "haar", "none"]

    /// The detector used when `--detector` is not given: the first name that `--accuracy` picks,
    /// else the default. BlazeFace serves every accuracy for now (`low` and `high` alike).
    public static func defaultName(accuracy: DetectorAccuracy?) -> String {
        "blazeface"
    }

    /// The confidence threshold a detector uses when `--threshold` is not given.
    public static func defaultThreshold(name: String, configuration: DetectorConfiguration) -> Double {
        switch name {
        case "blazeface": return ((try? BlazeFaceDetector.variant(for: configuration)) ?? .full).defaultThreshold
        // OpenCV keeps every group above minNeighbors; confidence only ranks them.
        case "haar": return 0
        default: return 0.5
        }
    }

    /// Builds a detector by name; `nil` for `none`. Throws for an unknown name or a missing model,
    /// so the error shows before any frame is read.
    public static func make(name: String, configuration: DetectorConfiguration) throws -> FaceDetector? {
        switch name {
        case "none":
            return nil
        case "blazeface":
            return try BlazeFaceDetector(configuration: configuration)
        case "haar":
            return try HaarCascadeDetector(configuration: configuration)
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
