import FaceCore

/// The detectors `--detector` can name, and how to build one.
public enum DetectorCatalog {
    /// Every name `--detector` accepts, `none` included.
    public static let names: [String] = ["none", "haar"]

    /// The detector used when `--detector` is not given: the first name that `--accuracy` picks,
    /// else the default.
    public static func defaultName(accuracy: DetectorAccuracy?) -> String {
        "none"
    }

    /// Builds a detector by name; `nil` for `none`. Throws for an unknown name or a missing model,
    /// so the error shows before any frame is read.
    public static func make(name: String, configuration: DetectorConfiguration) throws -> FaceDetector? {
        switch name {
        case "none":
            return nil
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
