import NeuralRuntime

/// How a detector splits several pictures into network runs: pictures of one input size go
/// together (first-seen order), in batches of at most `maximum`.
enum BatchPlan {
    /// A network input size, the usual key.
    struct Size: Hashable {
        let width, height: Int
    }

    static func groups<Key: Hashable>(_ indices: [Int], key: (Int) -> Key, maximum: Int) -> [(key: Key, members: [Int])] {
        var order: [Key] = []
        var members: [Key: [Int]] = [:]
        for index in indices {
            let value = key(index)
            if members[value] == nil { order.append(value) }
            members[value, default: []].append(index)
        }
        return order.flatMap { value -> [(key: Key, members: [Int])] in
            let all = members[value] ?? []
            return stride(from: 0, to: all.count, by: max(1, maximum)).map { start in
                (value, Array(all[start..<min(start + max(1, maximum), all.count)]))
            }
        }
    }
}

extension BatchPlan {
    /// Whether running pictures as one batch pays for `network` (planned for one picture): a
    /// batch reads each layer's weights once instead of once per picture, but its activations
    /// are the batch's size and fall out of the cache between layers. So only when the weights
    /// outweigh one picture's activations: CenterFace on 96 x 96 crops (7.2 MB of weights, about
    /// 1.2 x faster in batches of 4 to 8), not CenterFace on whole frames nor BlazeFace (0.4 MB of
    /// weights; batches of crops measured 0.82-0.98x of one at a time).
    static func pays(for network: NeuralNetwork) -> Bool {
        network.packedWeightFloatCount > network.arenaFloatCount + network.ringedFloatCount
    }
}

extension ResizableNetwork {
    /// The network for `batch` pictures of width x height, a planning failure turned into the
    /// detector's own error by `failure` (given the runtime's reason).
    func network(batch: Int, width: Int, height: Int, failure: (String) -> Error) throws -> NeuralNetwork {
        do {
            return try network(batch: batch, height: height, width: width)
        } catch let error as NeuralRuntimeError {
            throw failure(error.description)
        }
    }
}
