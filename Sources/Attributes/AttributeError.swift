/// Why face attributes cannot be measured.
public enum AttributeError: Error, CustomStringConvertible, Sendable {
    /// `--attributes` named something other than smile, blink, angle or all.
    case unknownAttribute(String)
    /// The face-mesh model file does not have the expected inputs and outputs.
    case notFaceMesh(path: String, reason: String)
    /// The iris model file does not have the expected inputs and outputs.
    case notIrisModel(path: String, reason: String)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .unknownAttribute(let name):
            return "--attributes: unknown attribute '\(name)' (use \(AttributeSelection.names.joined(separator: ", ")))"
        case .notFaceMesh(let path, let reason):
            return "\(path): not the face-mesh model: \(reason)"
        case .notIrisModel(let path, let reason):
            return "\(path): not the iris model: \(reason)"
        }
    }
}
