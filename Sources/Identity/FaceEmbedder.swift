import FaceCore
import NeuralRuntime

/// Computes face embeddings with dlib's face-recognition ResNet on the project's runtime: aligns
/// each face to dlib's 150x150 chip (`FaceChip`) straight into the network's input and runs it.
///
/// Reuses its network and buffers: after `init` nothing is allocated per face except the
/// returned values. Not thread-safe: make one per thread (an analysis lane), sharing one
/// `FaceEmbeddingModel`.
package final class FaceEmbedder {
    private let network: NeuralNetwork
    private let means: [Float]
    /// dlib's input layer divides by 256 after subtracting the means.
    private let scale: Float = 1.0 / 256

    /// Prepares a network for `model`.
    package init(model: FaceEmbeddingModel) throws {
        network = try NeuralNetwork(graph: model.network.graph)
        means = model.network.inputMeans
        guard model.network.inputRows == FaceChip.size, model.network.inputColumns == FaceChip.size,
              network.outputShapes.first?.count == 2 else {
            throw NeuralRuntimeError.unsupported(model: model.network.graph.name,
                                                 reason: "expected a 150x150 input and a vector output")
        }
    }

    /// The embedding and quality of `face` in `image`; nil when the detector gave no eyes.
    package func sample(of face: FaceObservation, in image: BGRAImage) -> FaceSample? {
        guard let chip = FaceChip(face: face) else { return nil }
        let input = network.input(0)
        chip.sample(image, into: input, means: means, scale: scale)
        let quality = FaceQuality.score(face: face, chip: chip, pixels: UnsafeBufferPointer(input), scale: scale)
        return FaceSample(embedding: run(), quality: quality)
    }

    /// The embedding of `face` in `image`; nil when the detector gave no eyes.
    package func embedding(of face: FaceObservation, in image: BGRAImage) -> FaceEmbedding? {
        sample(of: face, in: image)?.embedding
    }

    /// The embedding of a chip that is already aligned: `FaceChip.size` squared pixels of 8-bit
    /// red, green, blue, rows top to bottom (what dlib's `compute_face_descriptor` takes for a
    /// 150x150 image).
    package func embedding(chipRGB pixels: [UInt8]) -> FaceEmbedding? {
        let input = network.input(0)
        guard pixels.count == input.count else { return nil }
        for index in 0..<input.count { input[index] = (Float(pixels[index]) - means[index % 3]) * scale }
        return run()
    }

    private func run() -> FaceEmbedding {
        network.run()
        return FaceEmbedding(values: Array(network.output(0)))
    }
}
