/// A BlazeFace option that cannot be used.
package enum BlazeFaceError: Error, CustomStringConvertible, Sendable {
    /// `--model` named something other than `short` or `full`.
    case unknownModel(String)

    /// One line for the user.
    package var description: String {
        switch self {
        case .unknownModel(let model):
            return "unknown BlazeFace model '\(model)' (choose short or full)"
        }
    }
}
