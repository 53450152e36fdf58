/// A BlazeFace option that cannot be used.
package enum BlazeFaceError: Error, CustomStringConvertible, Sendable {
    /// `--model` named something other than `short` or `full`.
    case unknownModel(String)
    /// The network could not be planned for a frame's input size.
    case inputSize(width: Int, height: Int, reason: String)

    /// One line for the user.
    package var description: String {
        switch self {
        case .unknownModel(let model):
            return "unknown BlazeFace model '\(model)' (choose short or full)"
        case let .inputSize(width, height, reason):
            return "BlazeFace cannot run at \(width)x\(height): \(reason)"
        }
    }
}
