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
        case var .transposeConv2D(parameters) where parameters.activation == .none:
            parameters.activation = activation
            return .transposeConv2D(parameters)
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

    /// Folds an ADD whose operand is a convolution's output (no activation of its own, read by
    /// nothing else, same shape as the other operand, which is already computed when the
    /// convolution runs) into the convolution, which then writes the sum, and a PRELU with
    /// per-channel slopes that follows a convolution likewise: one pass over memory instead of two
    /// or three. A fused convolution's inputs become [data, filter, bias or -1, residual or -1,
    /// slopes]. Runs after shape inference (it needs the shapes) and before memory planning.
    static func fuseIntoConvolutions(_ operations: [OperationDescription], tensors: [TensorDescription],
                                     shapes: [[Int]?], graphOutputs: [Int]) -> [OperationDescription] {
        var operations = operations
        var readers = [Int](repeating: 0, count: tensors.count)
        for operation in operations {
            for index in operation.inputs where tensors.indices.contains(index) { readers[index] += 1 }
        }
        for index in graphOutputs where tensors.indices.contains(index) { readers[index] += 1 }
        var producer = [Int: Int]()
        for (position, operation) in operations.enumerated() {
            for output in operation.outputs { producer[output] = position }
        }
        /// The position of the convolution producing `tensor` when it can absorb an epilogue.
        func fusableConvolution(_ tensor: Int) -> Int? {
            guard tensors.indices.contains(tensor), readers[tensor] == 1, let position = producer[tensor],
                  case let .conv2D(parameters) = operations[position].kind, parameters.activation == .none,
                  operations[position].outputs.count == 1 else { return nil }
            return position
        }
        var removed = Set<Int>()
        for (position, operation) in operations.enumerated() where operation.inputs.count == 2 && operation.outputs.count == 1 {
            switch operation.kind {
            case let .add(activation):
                for (sum, other) in [(operation.inputs[0], operation.inputs[1]), (operation.inputs[1], operation.inputs[0])] {
                    guard let conv = fusableConvolution(sum), operations[conv].inputs.count <= 3, sum != other,
                          tensors.indices.contains(other), tensors[other].constant == nil,
                          let shape = shapes[sum], shapes[other] == shape,
                          (producer[other] ?? -1) < conv else { continue }
                    var inputs = operations[conv].inputs
                    while inputs.count < 3 { inputs.append(-1) }
                    operations[conv].inputs = inputs + [other]
                    operations[conv].kind = .conv2D(ConvolutionParameters(with: activation, from: operations[conv].kind))
                    operations[conv].outputs = operation.outputs
                    producer[operation.outputs[0]] = conv
                    removed.insert(position)
                    break
                }
            case .prelu:
                let data = operation.inputs[0], slopes = operation.inputs[1]
                guard let conv = fusableConvolution(data), operations[conv].inputs.count <= 4,
                      tensors.indices.contains(slopes), let values = tensors[slopes].constant,
                      let shape = shapes[data], let channels = shape.last, values.count == channels,
                      ShapeInference.broadcastPeriod(of: tensors[slopes].shape, over: shape) == channels
                else { continue }
                var inputs = operations[conv].inputs
                while inputs.count < 4 { inputs.append(-1) }
                operations[conv].inputs = inputs + [slopes]
                operations[conv].outputs = operation.outputs
                producer[operation.outputs[0]] = conv
                removed.insert(position)
            default:
                continue
            }
        }
        return operations.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }
}

private extension ConvolutionParameters {
    /// The parameters of the conv2D `kind` with `activation`.
    init(with activation: Activation, from kind: OperationKind) {
        guard case var .conv2D(parameters) = kind else { self.init(activation: activation); return }
        parameters.activation = activation
        self = parameters
    }
}
