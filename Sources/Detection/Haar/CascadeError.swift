/// Why a cascade file could not be used. Each description is one line naming the file.
package enum CascadeError: Error, CustomStringConvertible, Equatable {
    /// The file does not exist (or is a directory).
    case missingFile(path: String)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not well-formed XML.
    case malformedXML(path: String, reason: String)
    /// The XML is well-formed but is not an OpenCV cascade.
    case notACascade(path: String, reason: String)
    /// The file is a cascade in OpenCV's old (pre-2.4 `opencv-haar-classifier`) format.
    case oldFormat(path: String)
    /// The cascade uses something this implementation does not evaluate (HOG, another stage type).
    case unsupported(path: String, reason: String)
    /// A value in the cascade is missing or out of range.
    case invalid(path: String, reason: String)

    /// One line for the user.
    package var description: String {
        switch self {
        case .missingFile(let path):
            return "cascade file \(path) not found (run scripts/setup, which installs the opencv-data package)"
        case .unreadable(let path, let reason):
            return "cascade file \(path) cannot be read: \(reason)"
        case .malformedXML(let path, let reason):
            return "cascade file \(path) is not well-formed XML: \(reason)"
        case .notACascade(let path, let reason):
            return "file \(path) is not an OpenCV cascade: \(reason)"
        case .oldFormat(let path):
            return "cascade file \(path) is in OpenCV's old Haar format (opencv-haar-classifier); "
                + "convert it to the current format (opencv_storage/cascade), e.g. with OpenCV's traincascade tools"
        case .unsupported(let path, let reason):
            return "cascade file \(path) is not supported: \(reason)"
        case .invalid(let path, let reason):
            return "cascade file \(path) is invalid: \(reason)"
        }
    }
}
