import FaceCore
import NeuralRuntime

/// Computes face embeddings with dlib's face-recognition ResNet on the project's runtime: aligns
/// each face to dlib's 150x150 chip (`FaceChip`) straight into the network's input and runs it.
/// A face's views (`EmbeddingViews`) go through the network as one batch: each layer reads its
/// weights once per face instead of once per view, and each view's output is bit for bit what
/// the network gives it alone (docs/identity.md, "All views in one batch").
///
/// Reuses its network and buffers: after `init` nothing is allocated per face except the
/// returned values. Not thread-safe: make one per thread (an analysis lane), sharing one
/// `FaceEmbeddingModel`.
package final class FaceEmbedder {
    /// The network for every view of a face at once (batch = views.count).
    private let network: NeuralNetwork
    /// The network for one chip (`embedding(chipRGB:)`): `network` itself for one view, else one
    /// planned with it, sharing its packed weights and activation arena (only its tables are extra).
    private let single: NeuralNetwork
    private let means: [Float]
    /// dlib's input layer divides by 256 after subtracting the means.
    private let scale: Float = 1.0 / 256

    /// The views of each face whose descriptors are averaged.
    package let views: EmbeddingViews

    /// Prepares a network for `model`.
    package init(model: FaceEmbeddingModel, views: EmbeddingViews = .standard) throws {
        self.views = views
        guard model.network.inputRows == FaceChip.size, model.network.inputColumns == FaceChip.size else {
            throw NeuralRuntimeError.unsupported(model: model.network.graph.name, reason: "expected a 150x150 input")
        }
        // Both networks are planned now and the graph let go: kept for later planning, its
        // constants (22 MB, already packed) would stay in memory for the whole run. The batch is
        // planned first: the one-image network then fits in its arena.
        let sizes = try ResizableNetwork(graph: model.network.graph, capacity: 2)
        network = try sizes.network(batch: views.views.count, height: FaceChip.size, width: FaceChip.size)
        single = views.views.count == 1 ? network : try sizes.network(batch: 1, height: FaceChip.size, width: FaceChip.size)
        means = model.network.inputMeans
        guard network.outputShapes.first?.count == 2 else {
            throw NeuralRuntimeError.unsupported(model: model.network.graph.name, reason: "expected a vector output")
        }
    }

    /// Floats of activation arena the views' network plans (`NeuralNetwork.arenaFloatCount`).
    package var arenaFloatCount: Int { network.arenaFloatCount }

    /// The embedding and quality of `face` in `image`; nil when the detector gave no eyes.
    package func sample(of face: FaceObservation, in image: BGRAImage) -> FaceSample? {
        guard let chip = FaceChip(face: face) else { return nil }
        for (number, view) in views.views.enumerated() {
            chip.varied(zoom: view.zoom, dx: view.dx, dy: view.dy)
                .sample(image, into: network.input(0, image: number), means: means, scale: scale, mirrored: view.mirrored)
        }
        let quality = FaceQuality.score(face: face, chip: chip, pixels: UnsafeBufferPointer(network.input(0, image: 0)),
                                        scale: scale)
        network.run()
        var sum: [Float] = []
        for number in views.views.indices { Self.add(network.output(0, image: number), to: &sum) }
        average(&sum)
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
        let input = single.input(0)
        guard pixels.count == input.count else { return nil }
        for index in 0..<input.count { input[index] = (Float(pixels[index]) - means[index % 3]) * scale }
        single.run()
        return FaceEmbedding(values: Array(single.output(0)))
    }

    /// The embedding of `face` in `image` with the network run on one view at a time and the
    /// outputs averaged in the same order: what `sample(of:in:)` gave before its views went in one
    /// batch (tests compare the two bit for bit).
    package func embeddingViewByView(of face: FaceObservation, in image: BGRAImage) -> FaceEmbedding? {
        guard let chip = FaceChip(face: face) else { return nil }
        var sum: [Float] = []
        for view in views.views {
            chip.varied(zoom: view.zoom, dx: view.dx, dy: view.dy)
                .sample(image, into: single.input(0), means: means, scale: scale, mirrored: view.mirrored)
            single.run()
            Self.add(single.output(0), to: &sum)
        }
        average(&sum)
        return FaceEmbedding(values: sum)
    }

    /// Adds one view's output to `sum` (the first view starts it). Both paths sum the views in
    /// order through here, then scale once (`average`), so their embeddings agree bit for bit.
    private static func add(_ output: UnsafeBufferPointer<Float>, to sum: inout [Float]) {
        if sum.isEmpty { sum = Array(output) } else { for index in sum.indices { sum[index] += output[index] } }
    }

    /// Turns the views' summed outputs into their mean, in place.
    private func average(_ sum: inout [Float]) {
        guard views.views.count > 1 else { return }
        let share = 1 / Float(views.views.count)
        for index in sum.indices { sum[index] *= share }
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
