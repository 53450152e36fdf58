import Foundation

/// Translates a parsed ONNX model (NCHW) into a `GraphDescription` (NHWC): weights transposed
/// once here, BatchNormalization folded into the convolution before it when nothing else reads
/// that convolution's result (otherwise it becomes a 1x1 depthwise scale-and-shift).
struct ONNXGraphBuilder {
    let file: ONNXModelFile
    let name: String

    /// The operators this reader translates.
    static let supportedOperators: Set<String> = ["Conv", "ConvTranspose", "BatchNormalization", "Relu", "Add",
                                                  "Sigmoid"]

    private func malformed(_ reason: String) -> NeuralRuntimeError { .malformed(model: name, reason: reason) }
    private func unsupported(_ reason: String) -> NeuralRuntimeError { .unsupported(model: name, reason: reason) }

    func build() throws -> GraphDescription {
        // Refuse unknown operators before anything else, naming the first one.
        for node in file.nodes where !Self.supportedOperators.contains(node.opType)
            || !(node.domain.isEmpty || node.domain == "ai.onnx") {
            let label = node.domain.isEmpty ? node.opType : "\(node.domain).\(node.opType)"
            throw NeuralRuntimeError.unsupportedOperator(model: name, format: "ONNX", name: label)
        }
        let initializers = Dictionary(file.initializers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let dataInputs = file.inputs.filter { initializers[$0.name] == nil }
        guard dataInputs.count == 1, let input = dataInputs.first else {
            throw unsupported("\(dataInputs.count) graph inputs (expected one image)")
        }
        guard input.elementType == ONNXModelFile.float, input.dims.count == 4,
              input.dims[1] > 0, input.dims[1] < 1 << 16 else {
            throw unsupported("input '\(input.name)' must be a float32 [N,C,H,W] tensor, got \(input.dims)")
        }
        // Batch 1; spatial sizes are free (the caller sets them), the declared ones are a default.
        func declared(_ size: Int64) -> Int { size > 0 && size < 1 << 16 ? Int(size) : 32 }
        var tensors = [TensorDescription(name: input.name, shape: [1, declared(input.dims[2]), declared(input.dims[3]),
                                                                     Int(input.dims[1])])]
        var index: [String: Int] = [input.name: 0]

        // How often each value is read, to know when a BatchNormalization may be folded.
        var readers: [String: Int] = [:]
        for node in file.nodes { for name in node.inputs { readers[name, default: 0] += 1 } }
        for output in file.outputs { readers[output.name, default: 0] += 1 }

        var operations: [OperationDescription] = []
        func value(_ name: String) throws -> Int {
            guard let found = index[name] else { throw malformed("value '\(name)' is used before it is computed") }
            return found
        }
        func constant(_ name: String, _ values: [Float], shape: [Int]) -> Int {
            tensors.append(TensorDescription(name: name, shape: shape, constant: values))
            return tensors.count - 1
        }
        func produce(_ name: String) throws -> Int {
            guard index[name] == nil else { throw malformed("value '\(name)' is computed twice") }
            tensors.append(TensorDescription(name: name, shape: []))
            index[name] = tensors.count - 1
            return tensors.count - 1
        }
        func weights(_ node: ONNXModelFile.Node, _ position: Int) throws -> ONNXModelFile.Initializer {
            guard position < node.inputs.count, let tensor = initializers[node.inputs[position]],
                  tensor.dataType == ONNXModelFile.float,
                  ShapeArithmetic.elementCount(tensor.dims.map { Int(clamping: $0) }) == tensor.floatCount else {
                throw unsupported("\(node.opType) '\(node.name)' input \(position) must be a float32 initializer "
                    + "whose size matches its dimensions")
            }
            return tensor
        }

        for node in file.nodes {
            guard let outputName = node.outputs.first, !outputName.isEmpty, let first = node.inputs.first else {
                throw malformed("\(node.opType) '\(node.name)' has no input or output")
            }
            switch node.opType {
            case "Conv", "ConvTranspose":
                let (kind, filter, filterShape) = try convolution(node, weights: try weights(node, 1))
                var bias: [Float]? = nil
                if node.inputs.count > 2, !node.inputs[2].isEmpty {
                    let tensor = try weights(node, 2)
                    let channels = kind.isDepthwise ? filterShape[3] : filterShape[0]
                    guard tensor.floatCount == channels else {
                        throw malformed("\(node.opType) '\(node.name)' has \(tensor.floatCount) biases for \(channels)")
                    }
                    bias = tensor.floats
                }
                let filterIndex = constant(node.inputs[1], filter, shape: filterShape)
                let biasIndex = bias.map { constant(node.inputs[2], $0, shape: [$0.count]) } ?? -1
                operations.append(OperationDescription(kind: kind, inputs: [try value(first), filterIndex, biasIndex],
                                                       outputs: [try produce(outputName)]))
            case "BatchNormalization":
                guard node.inputs.count == 5 else { throw malformed("BatchNormalization '\(node.name)' needs 5 inputs") }
                let parts = try (1...4).map { try weights(node, $0).floats }
                let channels = parts[0].count
                guard channels > 0, parts.allSatisfy({ $0.count == channels }) else {
                    throw malformed("BatchNormalization '\(node.name)' has parameters of different sizes")
                }
                let epsilon = node.attributes["epsilon"]?.float ?? 1e-5
                let scale = (0..<channels).map { parts[0][$0] / (parts[3][$0] + epsilon).squareRoot() }
                let shift = (0..<channels).map { parts[1][$0] - parts[2][$0] * scale[$0] }
                let source = try value(first)
                if readers[first] == 1, let last = operations.last, last.outputs == [source],
                   try fold(&operations[operations.count - 1], &tensors, scale: scale, shift: shift) {
                    index[first] = nil
                    tensors[source].name = outputName
                    guard index[outputName] == nil else { throw malformed("value '\(outputName)' is computed twice") }
                    index[outputName] = source
                } else {
                    let filterIndex = constant(node.inputs[1], scale, shape: [1, 1, 1, channels])
                    let biasIndex = constant(node.inputs[2], shift, shape: [channels])
                    operations.append(OperationDescription(kind: .depthwiseConv2D(ConvolutionParameters(), depthMultiplier: 1),
                                                           inputs: [source, filterIndex, biasIndex],
                                                           outputs: [try produce(outputName)]))
                }
            case "Relu", "Sigmoid":
                operations.append(OperationDescription(kind: node.opType == "Relu" ? .activation(.relu) : .sigmoid,
                                                       inputs: [try value(first)], outputs: [try produce(outputName)]))
            default: // "Add"
                guard node.inputs.count == 2 else { throw malformed("Add '\(node.name)' needs two inputs") }
                var operands: [Int] = []
                for operand in node.inputs {
                    if let tensor = initializers[operand] {
                        // A scalar constant broadcasts the same way in NCHW and NHWC; others would not.
                        guard tensor.dataType == ONNXModelFile.float, tensor.floatCount == 1 else {
                            throw unsupported("Add '\(node.name)' with a non-scalar constant '\(operand)'")
                        }
                        operands.append(constant(operand, tensor.floats, shape: [1]))
                    } else {
                        operands.append(try value(operand))
                    }
                }
                operations.append(OperationDescription(kind: .add(.none), inputs: operands,
                                                       outputs: [try produce(outputName)]))
            }
        }
        let outputs = try file.outputs.map { try value($0.name) }
        guard !outputs.isEmpty else { throw malformed("the graph has no outputs") }
        return GraphDescription(tensors: tensors, operations: operations, inputs: [0], outputs: outputs, name: name)
    }

    /// The NHWC operation kind and filter of a Conv or ConvTranspose node.
    private func convolution(_ node: ONNXModelFile.Node, weights: ONNXModelFile.Initializer) throws
        -> (OperationKind, [Float], [Int]) {
        let label = "\(node.opType) '\(node.name)'"
        let dims = weights.dims.map { Int(clamping: $0) }
        guard dims.count == 4, dims.allSatisfy({ $0 > 0 }) else { throw unsupported("\(label) has a \(dims) filter") }
        func ints(_ key: String, _ fallback: [Int]) throws -> [Int] {
            guard let values = node.attributes[key]?.integers, !values.isEmpty else { return fallback }
            guard values.count == fallback.count, values.allSatisfy({ $0 >= 0 && $0 < 1 << 16 }) else {
                throw unsupported("\(label) attribute \(key) = \(values)")
            }
            return values.map { Int($0) }
        }
        if let mode = node.attributes["auto_pad"]?.text, mode != "NOTSET", mode != "VALID" {
            throw unsupported("\(label) auto_pad \(mode)")
        }
        let strides = try ints("strides", [1, 1]), dilations = try ints("dilations", [1, 1])
        let pads = try ints("pads", [0, 0, 0, 0])
        let group = Int(clamping: node.attributes["group"]?.integer ?? 1)
        guard strides.allSatisfy({ $0 >= 1 }), dilations.allSatisfy({ $0 >= 1 }) else {
            throw unsupported("\(label) strides \(strides) dilations \(dilations)")
        }
        // ONNX pads are [top, left, bottom, right].
        let parameters = ConvolutionParameters(strideH: strides[0], strideW: strides[1], dilationH: dilations[0],
                                               dilationW: dilations[1],
                                               padding: SpatialPadding(top: pads[0], left: pads[1], bottom: pads[2],
                                                                       right: pads[3]))
        let (first, second, kh, kw) = (dims[0], dims[1], dims[2], dims[3])
        if node.opType == "ConvTranspose" {
            guard group == 1, dilations == [1, 1], node.attributes["output_shape"] == nil,
                  try ints("output_padding", [0, 0]) == [0, 0] else {
                throw unsupported("\(label): only group 1, dilation 1, no output_padding/output_shape")
            }
            // [Cin][Cout][KH][KW] -> [Cout][KH][KW][Cin].
            return (.transposeConv2D(parameters), transpose(weights, dims, order: [1, 2, 3, 0]), [second, kh, kw, first])
        }
        if group == 1 {
            // [Cout][Cin][KH][KW] -> [Cout][KH][KW][Cin].
            return (.conv2D(parameters), transpose(weights, dims, order: [0, 2, 3, 1]), [first, kh, kw, second])
        }
        guard group > 1, second == 1, first % group == 0 else {
            throw unsupported("\(label) with group \(group) and filter \(dims) (only depthwise groups)")
        }
        // [C*m][1][KH][KW] -> [1][KH][KW][C*m]; ONNX and TFLite order the multiplied channels alike.
        return (.depthwiseConv2D(parameters, depthMultiplier: first / group),
                transpose(weights, dims, order: [1, 2, 3, 0]), [1, kh, kw, first])
    }

    /// Multiplies a convolution's output channels by `scale` and adds `shift` (a folded
    /// BatchNormalization); false when the operation is not a convolution without activation.
    private func fold(_ operation: inout OperationDescription, _ tensors: inout [TensorDescription], scale: [Float],
                      shift: [Float]) throws -> Bool {
        let filterIndex = operation.inputs[1]
        guard let filterCount = tensors[filterIndex].constant?.count else { return false }
        let shape = tensors[filterIndex].shape
        // Output channels are the first axis ([Cout][KH][KW][Cin]) or, depthwise, the last.
        let channels: Int, channelOf: (Int) -> Int
        let perChannel = filterCount / max(1, shape[0]), last = shape[3]
        switch operation.kind {
        case let .conv2D(parameters) where parameters.activation == .none:
            channels = shape[0]; channelOf = { $0 / perChannel }
        case let .transposeConv2D(parameters) where parameters.activation == .none:
            channels = shape[0]; channelOf = { $0 / perChannel }
        case let .depthwiseConv2D(parameters, _) where parameters.activation == .none:
            channels = last; channelOf = { $0 % last }
        default:
            return false
        }
        guard channels == scale.count, var filter = tensors[filterIndex].constant else { return false }
        // Taken out of the tensor first, so the filter is scaled in place rather than in a copy.
        tensors[filterIndex].constant = nil
        for position in filter.indices { filter[position] *= scale[channelOf(position)] }
        tensors[filterIndex].constant = filter
        let oldBias = operation.inputs[2] >= 0 ? tensors[operation.inputs[2]].constant : nil
        let bias = (0..<channels).map { (oldBias?[$0] ?? 0) * scale[$0] + shift[$0] }
        if operation.inputs[2] >= 0 {
            tensors[operation.inputs[2]].constant = bias
        } else {
            tensors.append(TensorDescription(name: "\(tensors[filterIndex].name).folded_bias", shape: [channels],
                                             constant: bias))
            operation.inputs[2] = tensors.count - 1
        }
        return true
    }

    /// `weights` of shape `dims` with its axes permuted so that result axis i is source axis order[i],
    /// read from the file where the values lie.
    private func transpose(_ weights: ONNXModelFile.Initializer, _ dims: [Int], order: [Int]) -> [Float] {
        let newDims = order.map { dims[$0] }
        var sourceStrides = [Int](repeating: 1, count: 4)
        for axis in stride(from: 2, through: 0, by: -1) { sourceStrides[axis] = sourceStrides[axis + 1] * dims[axis + 1] }
        let strides = order.map { sourceStrides[$0] }
        var result = [Float](repeating: 0, count: weights.floatCount)
        var position = 0
        for a in 0..<newDims[0] {
            for b in 0..<newDims[1] {
                for c in 0..<newDims[2] {
                    for d in 0..<newDims[3] {
                        result[position] = weights.float(at: a * strides[0] + b * strides[1] + c * strides[2] + d * strides[3])
                        position += 1
                    }
                }
            }
        }
        return result
    }
}

extension OperationKind {
    /// Whether this is a depthwise convolution (its filter's channels are the last axis).
    var isDepthwise: Bool {
        if case .depthwiseConv2D = self { return true }
        return false
    }
}
