/// BlazeFace cannot run on a picture.
package enum BlazeFaceError: Error, CustomStringConvertible, Sendable {
    /// The network could not be planned for a frame's input size.
    case inputSize(width: Int, height: Int, reason: String)

    /// One line for the user.
    package var description: String {
        switch self {
        case let .inputSize(width, height, reason):
            return "BlazeFace cannot run at \(width)x\(height): \(reason)"
        }
    }
}
