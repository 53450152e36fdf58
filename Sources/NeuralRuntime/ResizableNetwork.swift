/// A convolutional graph run at whatever input size it is given (its up-sampling resizes and
/// flattening reshapes follow the size: `GraphDescription.withInputSize`): one `NeuralNetwork` is
/// planned per input height x width and the few most recently used ones are kept, so a video
/// (one size) plans once and still images of varied sizes do not re-plan every time. A network
/// can also take a batch of images of one size (`network(batch:height:width:)`): each layer then
/// reads its weights once for all of them.
///
/// Not thread-safe, like `NeuralNetwork`: one instance per thread. The networks it returns share
/// one activation arena: a network's inputs and outputs are valid until any of them runs again.
package final class ResizableNetwork {
    /// The graph as read; its first input's shape is replaced per size.
    package let graph: GraphDescription
    /// How many planned networks are kept.
    package let capacity: Int
    /// The kernel path of the networks it plans.
    package let kernelPath: KernelPath
    private var cache: [(batch: Int, height: Int, width: Int, network: NeuralNetwork)] = []
    /// Convolution weights packed once for every size.
    private let weights: PackedWeights
    /// The shared model this network was made from (kept alive while in use, so others share it).
    private var model: LoadedModel?
    /// One activation arena for every size: only one network runs at a time, so the sizes cost
    /// the largest arena, not the sum (three CenterFace sizes per lane held 212 MB on a 720p run).
    private let arena = SharedArena()

    /// Wraps `graph`, whose first input must be NHWC [1,H,W,C]; `capacity` networks are kept.
    package convenience init(graph: GraphDescription, capacity: Int = 4, kernelPath: KernelPath = .default) throws {
        try self.init(graph: graph, weights: PackedWeights(), capacity: capacity, kernelPath: kernelPath)
    }

    /// Wraps a model shared with other threads' networks (its packed weights too).
    package convenience init(model: LoadedModel, capacity: Int = 4, kernelPath: KernelPath = .default) throws {
        try self.init(graph: model.graph, weights: model.weights(for: kernelPath), capacity: capacity, kernelPath: kernelPath)
        self.model = model
    }

    private init(graph: GraphDescription, weights: PackedWeights, capacity: Int, kernelPath: KernelPath) throws {
        self.kernelPath = kernelPath
        self.weights = weights
        guard let input = graph.inputs.first, graph.tensors.indices.contains(input),
              graph.tensors[input].shape.count == 4 else {
            throw NeuralRuntimeError.invalidGraph(model: graph.name, reason: "the first input is not a 4-D image")
        }
        self.graph = graph
        self.capacity = max(1, capacity)
    }

    /// The network planned for a [1,height,width,C] input (built on first use, then cached).
    package func network(height: Int, width: Int) throws -> NeuralNetwork {
        try network(batch: 1, height: height, width: width)
    }

    /// A network planned for a [1,height,width,C] input and not kept (checking a graph once
    /// costs nothing after: its tables and arena go with it).
    package func probe(height: Int, width: Int) throws -> NeuralNetwork {
        try NeuralNetwork(graph: try sizedGraph(batch: 1, height: height, width: width), kernelPath: kernelPath, sharing: weights)
    }

    /// The network planned for `batch` images of height x width ([batch,height,width,C]): image
    /// i's input and outputs are the i-th of `batch` equal slices of `input(0)` and `output(_:)`.
    /// Each image's outputs are bit for bit those of a one-image network.
    package func network(batch: Int, height: Int, width: Int) throws -> NeuralNetwork {
        if let found = cache.firstIndex(where: { $0.batch == batch && $0.height == height && $0.width == width }) {
            let entry = cache.remove(at: found)
            cache.append(entry)
            return entry.network
        }
        let network = try NeuralNetwork(graph: try sizedGraph(batch: batch, height: height, width: width), kernelPath: kernelPath,
                                        sharing: weights, arena: arena)
        // Networks planned on a smaller block than the arena's now are planned again when asked
        // for, so the old block is freed.
        cache.removeAll { entry in
            entry.network.arenaBlock !== arena.block || entry.network.ringedBlock.map { $0 !== arena.ringedBlock } == true
        }
        if cache.count >= capacity { cache.removeFirst() }
        cache.append((batch, height, width, network))
        return network
    }

    private func sizedGraph(batch: Int, height: Int, width: Int) throws -> GraphDescription {
        do {
            return try graph.withInputSize(height: height, width: width, batch: batch)
        } catch let issue as GraphIssue {
            throw NeuralRuntimeError.invalidGraph(model: graph.name, reason: "at \(batch)x\(height)x\(width): \(issue.reason)")
        }
    }
}
