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

    /// The views of each face whose descriptors are averaged.
    package let views: EmbeddingViews

    /// Prepares a network for `model`.
    package init(model: FaceEmbeddingModel, views: EmbeddingViews = .standard) throws {
        self.views = views
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
        var quality = 0.0
        var sum: [Float] = []
        for (number, view) in views.views.enumerated() {
            chip.varied(zoom: view.zoom, dx: view.dx, dy: view.dy)
                .sample(image, into: input, means: means, scale: scale, mirrored: view.mirrored)
            if number == 0 {
                quality = FaceQuality.score(face: face, chip: chip, pixels: UnsafeBufferPointer(input), scale: scale)
            }
            network.run()
            let output = network.output(0)
            if sum.isEmpty { sum = Array(output) } else { for index in sum.indices { sum[index] += output[index] } }
        }
        if views.views.count > 1 {
            let share = 1 / Float(views.views.count)
            for index in sum.indices { sum[index] *= share }
        }
        return FaceSample(embedding: FaceEmbedding(values: sum), quality: quality)
    }

    /// The embedding of `face` in `image`; nil when the detector gave no eyes.
    package func embedding(of face: FaceObservation, in image: BGRAImage) -> FaceEmbedding? {
        sample(of: face, in: image)?.embedding
    }

    /// The embedding of a chip that is already aligned: `FaceChip.size` squared pixels of 8-bit
    /// red, green, blue, rows top to bottom (what dlib's `compute_face_descriptor` takes for a
    /// 150x150 image). The network on this chip alone, whatever `views` says: it checks the
    /// network against dlib's.
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

/// Which views of a face `FaceEmbedder` runs the network on; the descriptor is their mean (dlib's
/// `compute_face_descriptor` with jitter averages its views the same way, unnormalised).
package struct EmbeddingViews: Sendable, Equatable {
    /// One view: the chip zoomed about the template's centre, moved, and mirrored about its axis.
    package struct View: Sendable, Equatable {
        package var mirrored: Bool
        package var zoom: Double
        package var dx: Double
        package var dy: Double

        /// Creates a view (the defaults are the chip itself).
        package init(mirrored: Bool = false, zoom: Double = 1, dx: Double = 0, dy: Double = 0) {
            self.mirrored = mirrored
            self.zoom = zoom
            self.dx = dx
            self.dy = dy
        }
    }

    /// The views, the first one also scored for quality.
    package var views: [View]

    /// Creates a set of views; an empty list means the chip alone.
    package init(_ views: [View]) {
        self.views = views.isEmpty ? [View()] : views
    }

    /// The chip alone.
    package static let plain = EmbeddingViews([View()])
    /// The chip and its mirror image.
    package static let mirrored = EmbeddingViews([View(), View(mirrored: true)])
    /// The chip, its mirror image and both 5 % smaller and larger (the face cut wider and tighter).
    package static let mirroredZoomed = EmbeddingViews([View(), View(mirrored: true), View(zoom: 0.95),
                                                        View(mirrored: true, zoom: 0.95), View(zoom: 1.05),
                                                        View(mirrored: true, zoom: 1.05)])
    /// The chip and its mirror image, each also moved 3 chip pixels left, right, up and down.
    package static let mirroredShifted = EmbeddingViews([View(), View(mirrored: true)] + [(3.0, 0.0), (-3, 0), (0, 3), (0, -3)]
        .flatMap { shift in [false, true].map { View(mirrored: $0, dx: shift.0, dy: shift.1) } })
    /// What the product uses.
    package static let standard = mirrored

    /// A set by name (identity-bench's `--views`): plain, mirrored, mirrored-zoomed, mirrored-shifted.
    package init?(name: String) {
        switch name {
        case "plain": self = .plain
        case "mirrored": self = .mirrored
        case "mirrored-zoomed": self = .mirroredZoomed
        case "mirrored-shifted": self = .mirroredShifted
        default: return nil
        }
    }
}
