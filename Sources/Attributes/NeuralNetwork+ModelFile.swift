import FaceCore
import NeuralRuntime

extension NeuralNetwork {
    /// Loads a TFLite model for an analyzer; the runtime's errors become `ModelError.damaged`
    /// (one line naming the file), like a missing file's `ModelError`.
    static func analyzerModel(at path: String) throws -> NeuralNetwork {
        do {
            return try NeuralNetwork(tfliteFile: path)
        } catch let error as NeuralRuntimeError {
            throw ModelError.damaged(path: path, reason: error.description)
        }
    }
}
