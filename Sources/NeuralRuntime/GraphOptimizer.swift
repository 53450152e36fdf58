/// Rewrites a graph before planning so that fewer passes over memory are needed.
enum GraphOptimizer {
    /// Folds a stand-alone RELU / RELU6 / RELU_N1_TO_1 into the operation that produces its
    /// input, when that operation has no activation of its own and nothing else reads the
    /// intermediate tensor (the BlazeFace models apply every ReLU as a separate operator).
    static func fuseActivations(_ graph: GraphDescription) -> GraphDescription {
        var readers = [Int](repeating: 0, count: graph.tensors.count)
        for operation in graph.operations {
            for index in operation.inputs where graph.tensors.indices.contains(index) { readers[index] += 1 }
        }
        for index in graph.outputs where graph.tensors.indices.contains(index) { readers[index] += 1 }
        var producer: [Int: Int] = [:]
        var operations = graph.operations
        var removed = Set<Int>()
        for (position, operation) in operations.enumerated() {
            defer { if let output = operation.outputs.first { producer[output] = position } }
            guard case let .activation(activation) = operation.kind, operation.inputs.count == 1,
                  operation.outputs.count == 1, let source = producer[operation.inputs[0]],
                  graph.tensors.indices.contains(operation.inputs[0]), readers[operation.inputs[0]] == 1,
                  !removed.contains(source), let fused = withActivation(operations[source].kind, activation)
            else { continue }
            operations[source].kind = fused
            operations[source].outputs = operation.outputs
            removed.insert(position)
        }
        var result = graph
        result.operations = operations.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        return result
    }

    /// `kind` with `activation` fused, or nil when it already has one or cannot take one.
    private static func withActivation(_ kind: OperationKind, _ activation: Activation) -> OperationKind? {
        switch kind {
        case var .conv2D(parameters) where parameters.activation == .none:
            parameters.activation = activation
            return .conv2D(parameters)
        case .depthwiseConv2D(var parameters, let multiplier) where parameters.activation == .none:
            parameters.activation = activation
            return .depthwiseConv2D(parameters, depthMultiplier: multiplier)
        case .add(.none):
            return .add(activation)
        case .maxPool2D(var parameters) where parameters.activation == .none:
            parameters.activation = activation
            return .maxPool2D(parameters)
        case let .concatenation(axis, .none):
            return .concatenation(axis: axis, activation: activation)
        default:
            return nil
        }
    }
}
