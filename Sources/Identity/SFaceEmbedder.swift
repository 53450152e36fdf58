import FaceCore
import NeuralRuntime

/// Computes SFace face embeddings on the project's runtime: aligns each face to SFace's 112x112
/// chip (`SFaceChip`) straight into the network's input and runs it. The result is the network's
/// 128 values scaled to unit length (SFace's embeddings are compared by cosine: the Euclidean
/// distance of two unit vectors is sqrt(2 - 2 cos)).
///
/// Reuses its network and its activation arena: after `init` nothing is allocated per face
/// except the returned values. Not thread-safe: make one per thread, sharing one `SFaceModel`.
package final class SFaceEmbedder {
    private let network: NeuralNetwork
    /// Threads one face's network is split over (`NeuralNetwork.run(threads:)`; the output is the
    /// same for any number).
    private let threads: Int

    /// Prepares a network for `model`, run on `threads` threads per face.
    package init(model: SFaceModel, threads: Int = 1) throws {
        self.threads = max(1, threads)
        let sizes = try ResizableNetwork(graph: model.graph, capacity: 1)
        network = try sizes.network(height: SFaceChip.size, width: SFaceChip.size)
        guard network.inputShapes.first == [1, SFaceChip.size, SFaceChip.size, 3],
              network.outputShapes.first?.count == 2 else {
            throw NeuralRuntimeError.unsupported(model: model.graph.name,
                                                 reason: "expected a 112x112 RGB input and a vector output")
        }
    }

    /// The embedding of `face` in `image` (unit length); nil when the detector gave no eyes or mouth.
    package func embedding(of face: FaceObservation, in image: BGRAImage) -> FaceEmbedding? {
        guard let chip = SFaceChip(face: face) else { return nil }
        chip.sample(image, into: network.input(0))
        network.run(threads: threads)
        return Self.unit(network.output(0))
    }

    /// The embedding (unit length) of a chip that is already aligned: `SFaceChip.size` squared
    /// pixels of 8-bit red, green, blue, rows top to bottom.
    package func embedding(chipRGB pixels: [UInt8]) -> FaceEmbedding? {
        guard let output = networkOutput(chipRGB: pixels) else { return nil }
        return Self.unit(UnsafeBufferPointer(start: output, count: output.count))
    }

    /// The network's own output (not scaled) for an aligned chip, as `embedding(chipRGB:)` takes
    /// it (tests compare it with onnxruntime's).
    package func networkOutput(chipRGB pixels: [UInt8]) -> [Float]? {
        let input = network.input(0)
        guard pixels.count == input.count else { return nil }
        for index in 0..<input.count { input[index] = Float(pixels[index]) }
        network.run()
        return Array(network.output(0))
    }

    /// `values` scaled to unit length (left as they are when all zero).
    private static func unit(_ values: UnsafeBufferPointer<Float>) -> FaceEmbedding {
        var sum: Float = 0
        for value in values { sum += value * value }
        let scale = sum > 0 ? 1 / sum.squareRoot() : 1
        return FaceEmbedding(values: values.map { $0 * scale })
    }
}
