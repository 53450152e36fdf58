/// A convolutional graph run at whatever input size it is given (its up-sampling resizes and
/// flattening reshapes follow the size: `GraphDescription.withInputSize`): one `NeuralNetwork` is
/// planned per input height x width and the few most recently used ones are kept, so a video
/// (one size) plans once and still images of varied sizes do not re-plan every time. A network
/// can also take a batch of images of one size (`network(batch:height:width:)`): each layer then
/// reads its weights once for all of them.
///
/// Not thread-safe, like `NeuralNetwork`: one instance per thread.
package final class ResizableNetwork {
    /// The graph as read; its first input's shape is replaced per size.
    package let graph: GraphDescription
    /// How many planned networks are kept.
    package let capacity: Int
    /// The kernel path of the networks it plans.
    package let kernelPath: KernelPath
    private var cache: [(batch: Int, height: Int, width: Int, network: NeuralNetwork)] = []
    /// Convolution weights packed once for every size.
    private let weights = PackedWeights()

    /// Wraps `graph`, whose first input must be NHWC [1,H,W,C]; `capacity` networks are kept.
    package init(graph: GraphDescription, capacity: Int = 4, kernelPath: KernelPath = .default) throws {
        self.kernelPath = kernelPath
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

    /// The network planned for `batch` images of height x width ([batch,height,width,C]): image
    /// i's input and outputs are the i-th of `batch` equal slices of `input(0)` and `output(_:)`.
    /// Each image's outputs are bit for bit those of a one-image network.
    package func network(batch: Int, height: Int, width: Int) throws -> NeuralNetwork {
        if let found = cache.firstIndex(where: { $0.batch == batch && $0.height == height && $0.width == width }) {
            let entry = cache.remove(at: found)
            cache.append(entry)
            return entry.network
        }
        let sized: GraphDescription
        do {
            sized = try graph.withInputSize(height: height, width: width, batch: batch)
        } catch let issue as GraphIssue {
            throw NeuralRuntimeError.invalidGraph(model: graph.name, reason: "at \(batch)x\(height)x\(width): \(issue.reason)")
        }
        let network = try NeuralNetwork(graph: sized, kernelPath: kernelPath, sharing: weights)
        if cache.count >= capacity { cache.removeFirst() }
        cache.append((batch, height, width, network))
        return network
    }
}
