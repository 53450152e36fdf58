import FaceCore
import NeuralRuntime

/// `read(path)` with the runtime's refusals as one line naming the file: `ModelError.unreadable`
/// when it cannot be read, `.damaged` when its contents are refused; running out of memory stays
/// what it is.
func readModel<Model>(at path: String, _ read: (String) throws -> Model) throws -> Model {
    do {
        return try read(path)
    } catch let error as NeuralRuntimeError {
        if case .outOfMemory = error { throw error }
        throw error.unreadableReason.map { ModelError.unreadable(path: path, reason: $0) }
            ?? ModelError.damaged(path: path, reason: error.description)
    }
}
