import Foundation

/// Translates a parsed ONNX model (NCHW) into a `GraphDescription` (NHWC): weights transposed
/// once here, BatchNormalization folded into the convolution or fully connected layer before it
/// when nothing else reads that layer's result (otherwise it becomes a 1x1 depthwise
/// scale-and-shift). Constant subgraphs on weights (DequantizeLinear, Reshape, Constant) are
/// computed here, once; a Flatten feeding a Gemm costs nothing at run time (the Gemm's weight
/// columns are put in NHWC order instead).
struct ONNXGraphBuilder {
    let file: ONNXModelFile
    let name: String

    /// The operators this reader translates.
    static let supportedOperators: Set<String> = ["Conv", "ConvTranspose", "BatchNormalization", "Relu", "Add",
                                                  "Sigmoid", "PRelu", "Sub", "Mul", "Div", "Dropout", "Identity",
                                                  "Flatten", "Gemm", "DequantizeLinear", "Reshape", "Constant"]

    private func malformed(_ reason: String) -> NeuralRuntimeError { .malformed(model: name, reason: reason) }
    private func unsupported(_ reason: String) -> NeuralRuntimeError { .unsupported(model: name, reason: reason) }

    func build() throws -> GraphDescription {
        // Refuse unknown operators before anything else, naming the first one.
        for node in file.nodes where !Self.supportedOperators.contains(node.opType)
            || !(node.domain.isEmpty || node.domain == "ai.onnx") {
            let label = node.domain.isEmpty ? node.opType : "\(node.domain).\(node.opType)"
            throw NeuralRuntimeError.unsupportedOperator(model: name, format: "ONNX", name: label)
        }
        // Constants by name: the file's initializers, then what DequantizeLinear, Reshape and
        // Constant nodes compute from them.
        var initializers = Dictionary(file.initializers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

        // How often each value is read, to know when a BatchNormalization may be folded.
        var readers: [String: Int] = [:]
        for node in file.nodes { for name in node.inputs { readers[name, default: 0] += 1 } }
        for output in file.outputs { readers[output.name, default: 0] += 1 }

        // Graph inputs that are not initializers and that something reads (exporters also list
        // weights computed by nodes as inputs).
        let dataInputs = file.inputs.filter { initializers[$0.name] == nil && readers[$0.name, default: 0] > 0 }
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
        // Each computed tensor's shape at the declared input size, where it can be inferred (a
        // Flatten needs its input's, an element-wise constant its channel count).
        var shapes: [Int: [Int]] = [0: tensors[0].shape]
        // Readers of each tensor, through every name it goes by (a Dropout's output is its input).
        var tensorReaders: [Int: Int] = [0: readers[input.name, default: 0]]
        // Values that are a Flatten of an NHWC [1,H,W,C] tensor; where its order differs from
        // ONNX's (H*W > 1 and C > 1), only a Gemm may read them, its weights reordered.
        var flattened: [String: (height: Int, width: Int, channels: Int)] = [:]

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
            tensorReaders[tensors.count - 1] = readers[name, default: 0]
            return tensors.count - 1
        }
        /// `name` becomes another name of tensor `source` (which `reader` read, once).
        func alias(_ name: String, to source: Int) throws {
            guard index[name] == nil else { throw malformed("value '\(name)' is computed twice") }
            index[name] = source
            tensorReaders[source, default: 0] += readers[name, default: 0] - 1
        }
        func append(_ kind: OperationKind, _ inputs: [Int], output: String) throws {
            let produced = try produce(output)
            operations.append(OperationDescription(kind: kind, inputs: inputs, outputs: [produced]))
            let inputShapes = inputs.map { $0 >= 0 ? shapes[$0] ?? (tensors[$0].constant != nil ? tensors[$0].shape : nil) : nil }
            shapes[produced] = try? ShapeInference.outputShape(kind, inputs: inputShapes)
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
        /// Multiplies tensor `source` (value `sourceName`) by `scale` and adds `shift` per channel:
        /// folded into the operation that computes it when nothing else reads it, else a 1x1
        /// depthwise convolution.
        func scaleAndShift(_ node: ONNXModelFile.Node, source: Int, scale: [Float], shift: [Float], output: String) throws {
            if tensorReaders[source] == 1, let last = operations.last, last.outputs == [source],
               try fold(&operations[operations.count - 1], &tensors, scale: scale, shift: shift) {
                for (key, found) in index where found == source { index[key] = nil }
                tensors[source].name = output
                try alias(output, to: source)
                tensorReaders[source] = readers[output, default: 0]
                return
            }
            guard let shape = shapes[source], shape.count == 4, shape[3] == scale.count else {
                throw unsupported("\(node.opType) '\(node.name)' on a value that is not an image of \(scale.count) channels")
            }
            let filterIndex = constant("\(node.name).scale", scale, shape: [1, 1, 1, scale.count])
            let biasIndex = constant("\(node.name).shift", shift, shape: [shift.count])
            try append(.depthwiseConv2D(ConvolutionParameters(), depthMultiplier: 1), [source, filterIndex, biasIndex],
                       output: output)
        }
        /// The rank and channel count (the last NHWC axis) of tensor `source`, when known.
        func channels(_ source: Int) -> (rank: Int, count: Int)? {
            guard let shape = shapes[source], shape.count == 4 || shape.count == 2, let last = shape.last else { return nil }
            return (shape.count, last)
        }

        for node in file.nodes {
            guard let outputName = node.outputs.first, !outputName.isEmpty else {
                throw malformed("\(node.opType) '\(node.name)' has no output")
            }
            let label = "\(node.opType) '\(node.name)'"
            // Constant subgraphs (quantised weights and their reshapes) are computed here, once.
            switch node.opType {
            case "Constant":
                guard let tensor = node.attributes["value"]?.tensor ?? node.attributes["value_float"]?.float.map({
                    var scalar = ONNXModelFile.Initializer()
                    scalar.dataType = ONNXModelFile.float
                    scalar.listedFloats = [$0]
                    return scalar
                }) else { throw unsupported("\(label) without a 'value' or 'value_float' attribute") }
                initializers[outputName] = tensor
                continue
            case "DequantizeLinear":
                guard node.inputs.count >= 2, let x = initializers[node.inputs[0]], let scale = initializers[node.inputs[1]]
                else { throw unsupported("\(label) of a computed value (only constant weights are dequantised)") }
                let zero = node.inputs.count > 2 && !node.inputs[2].isEmpty ? initializers[node.inputs[2]] : nil
                if node.inputs.count > 2, !node.inputs[2].isEmpty, zero == nil {
                    throw unsupported("\(label) with a computed zero point")
                }
                do {
                    initializers[outputName] = try Self.dequantize(x, scale: scale, zeroPoint: zero,
                                                                   axis: node.attributes["axis"]?.integer ?? 1,
                                                                   blockSize: node.attributes["block_size"]?.integer ?? 0)
                } catch let issue as GraphIssue {
                    throw malformed("\(label): \(issue.reason)")
                }
                continue
            case "Reshape" where initializers[node.inputs.first ?? ""] != nil:
                guard node.inputs.count == 2, let data = initializers[node.inputs[0]],
                      let target = initializers[node.inputs[1]], target.dataType == ONNXModelFile.int64 else {
                    throw unsupported("\(label) needs a constant int64 shape")
                }
                do {
                    initializers[outputName] = try Self.reshape(data, to: target.int64s,
                                                                allowZero: node.attributes["allowzero"]?.integer ?? 0)
                } catch let issue as GraphIssue {
                    throw malformed("\(label): \(issue.reason)")
                }
                continue
            case "Reshape":
                throw unsupported("\(label) of a computed value (only weights are reshaped)")
            default:
                break
            }
            guard let first = node.inputs.first else { throw malformed("\(label) has no input") }
            switch node.opType {
            case "Conv", "ConvTranspose":
                let (kind, filter, filterShape) = try convolution(node, weights: try weights(node, 1))
                var bias: [Float]? = nil
                if node.inputs.count > 2, !node.inputs[2].isEmpty {
                    let tensor = try weights(node, 2)
                    let channels = kind.isDepthwise ? filterShape[3] : filterShape[0]
                    guard tensor.floatCount == channels else {
                        throw malformed("\(label) has \(tensor.floatCount) biases for \(channels)")
                    }
                    bias = tensor.floats
                }
                let filterIndex = constant(node.inputs[1], filter, shape: filterShape)
                let biasIndex = bias.map { constant(node.inputs[2], $0, shape: [$0.count]) } ?? -1
                try append(kind, [try value(first), filterIndex, biasIndex], output: outputName)
            case "BatchNormalization":
                guard node.inputs.count == 5 else { throw malformed("\(label) needs 5 inputs") }
                let parts = try (1...4).map { try weights(node, $0).floats }
                let channels = parts[0].count
                guard channels > 0, parts.allSatisfy({ $0.count == channels }) else {
                    throw malformed("\(label) has parameters of different sizes")
                }
                let epsilon = node.attributes["epsilon"]?.float ?? 1e-5
                let scale = (0..<channels).map { parts[0][$0] / (parts[3][$0] + epsilon).squareRoot() }
                let shift = (0..<channels).map { parts[1][$0] - parts[2][$0] * scale[$0] }
                try scaleAndShift(node, source: try value(first), scale: scale, shift: shift, output: outputName)
            case "Sub", "Mul", "Div":
                // Only a value and a constant (a scalar or one value per channel): a scale and shift.
                guard node.inputs.count == 2 else { throw malformed("\(label) needs two inputs") }
                let constantFirst = initializers[node.inputs[0]] != nil
                guard let operand = initializers[node.inputs[constantFirst ? 0 : 1]],
                      initializers[node.inputs[constantFirst ? 1 : 0]] == nil else {
                    throw unsupported("\(label) needs one computed value and one constant")
                }
                let source = try value(node.inputs[constantFirst ? 1 : 0])
                guard let (rank, count) = channels(source) else { throw unsupported("\(label) on a value of unknown shape") }
                let values = try perChannel(operand, rank: rank, channels: count, label: label)
                switch (node.opType, constantFirst) {
                case ("Sub", false):
                    try scaleAndShift(node, source: source, scale: .init(repeating: 1, count: count),
                                      shift: values.map { -$0 }, output: outputName)
                case ("Sub", true):
                    try scaleAndShift(node, source: source, scale: .init(repeating: -1, count: count), shift: values,
                                      output: outputName)
                case ("Mul", _):
                    try scaleAndShift(node, source: source, scale: values, shift: .init(repeating: 0, count: count),
                                      output: outputName)
                case ("Div", false):
                    guard values.allSatisfy({ $0 != 0 }) else { throw unsupported("\(label) by zero") }
                    try scaleAndShift(node, source: source, scale: values.map { 1 / $0 },
                                      shift: .init(repeating: 0, count: count), output: outputName)
                default:
                    throw unsupported("\(label) of a constant by a computed value")
                }
            case "PRelu":
                guard node.inputs.count == 2, let slopes = initializers[node.inputs[1]] else {
                    throw unsupported("\(label) needs constant slopes")
                }
                let source = try value(first)
                guard let (rank, count) = channels(source) else { throw unsupported("\(label) on a value of unknown shape") }
                let values = try perChannel(slopes, rank: rank, channels: count, label: label)
                let slopeIndex = constant(node.inputs[1], values, shape: [values.count])
                try append(.prelu, [source, slopeIndex], output: outputName)
            case "Dropout", "Identity":
                // Inference: the input unchanged (a Dropout's ratio and training mode are not read).
                if node.outputs.count > 1, !node.outputs[1].isEmpty, readers[node.outputs[1], default: 0] > 0 {
                    throw unsupported("\(label) whose mask is read")
                }
                let source = try value(first)
                try alias(outputName, to: source)
                if let shape = flattened[first] { flattened[outputName] = shape }
            case "Flatten":
                let source = try value(first)
                let axis = node.attributes["axis"]?.integer ?? 1
                guard let shape = shapes[source], shape.count == 4 || shape.count == 2,
                      axis == 1 || axis == 1 - Int64(shape.count) else {
                    throw unsupported("\(label) with axis \(axis) or of a value of unknown shape")
                }
                try alias(outputName, to: source)
                if shape.count == 4 { flattened[outputName] = (shape[1], shape[2], shape[3]) }
                if shape.count == 4, shape[1] * shape[2] > 1, shape[3] > 1 {
                    // NHWC order differs from ONNX's NCHW flattening: only a Gemm, which takes its
                    // weights in the matching order, may read it.
                    let consumers = file.nodes.filter { $0.inputs.contains(outputName) }
                    guard consumers.allSatisfy({ $0.opType == "Gemm" && $0.inputs.first == outputName
                        && !$0.inputs.dropFirst().contains(outputName) }),
                        !file.outputs.contains(where: { $0.name == outputName }) else {
                        throw unsupported("\(label) of an image read by something else than a Gemm")
                    }
                }
            case "Gemm":
                let source = try value(first)
                let (weightValues, biasValues, outputs) = try gemm(node, initializers: initializers,
                                                                   flattened: flattened[first])
                guard let shape = shapes[source], shape.count == 2 || flattened[first] != nil,
                      let count = ShapeArithmetic.elementCount(shape), count == weightValues.count / outputs else {
                    throw unsupported("\(label): input of shape \(shapes[source] ?? []) does not match "
                        + "\(weightValues.count / outputs) weights per output")
                }
                let weightIndex = constant(node.inputs[1], weightValues, shape: [outputs, count])
                let biasIndex = biasValues.map { constant(node.inputs[2], $0, shape: [outputs]) } ?? -1
                try append(.fullyConnected(.none), [source, weightIndex, biasIndex], output: outputName)
            case "Relu", "Sigmoid":
                try append(node.opType == "Relu" ? .activation(.relu) : .sigmoid, [try value(first)], output: outputName)
            default: // "Add"
                guard node.inputs.count == 2 else { throw malformed("\(label) needs two inputs") }
                var operands: [Int] = []
                for operand in node.inputs {
                    if let tensor = initializers[operand] {
                        // A scalar constant broadcasts the same way in NCHW and NHWC; others would not.
                        guard tensor.dataType == ONNXModelFile.float, tensor.floatCount == 1 else {
                            throw unsupported("\(label) with a non-scalar constant '\(operand)'")
                        }
                        operands.append(constant(operand, tensor.floats, shape: [1]))
                    } else {
                        operands.append(try value(operand))
                    }
                }
                try append(.add(.none), operands, output: outputName)
            }
        }
        let outputs = try file.outputs.map { try value($0.name) }
        guard !outputs.isEmpty else { throw malformed("the graph has no outputs") }
        return GraphDescription(tensors: tensors, operations: operations, inputs: [0], outputs: outputs, name: name)
    }

    /// The values of constant `tensor` that apply per channel of an NCHW value of rank `rank` (4 or
    /// 2) with `channels` channels: `channels` values, from one (a scalar) or from a tensor whose
    /// only dimension above 1 is the channel axis once right-aligned (`[C,1,1]` or `[1,C,1,1]` for
    /// [N,C,H,W], `[C]` or `[1,C]` for [N,C]).
    private func perChannel(_ tensor: ONNXModelFile.Initializer, rank: Int, channels: Int, label: String) throws -> [Float] {
        let dims = tensor.dims.map { Int(clamping: $0) }
        guard tensor.dataType == ONNXModelFile.float, ShapeArithmetic.elementCount(dims) == tensor.floatCount else {
            throw unsupported("\(label) needs a float32 constant whose size matches its dimensions")
        }
        if tensor.floatCount == 1 { return .init(repeating: tensor.float(at: 0), count: channels) }
        // Right-aligned against [N,C,H,W] (or [N,C]): the channel axis is the third (or last) from the end.
        let channelAxis = dims.count - (rank == 4 ? 3 : 1)
        guard tensor.floatCount == channels, channelAxis >= 0, dims.count <= rank,
              dims.indices.allSatisfy({ $0 == channelAxis || dims[$0] == 1 }) else {
            throw unsupported("\(label) with a constant of shape \(dims) on \(channels) channels (only a scalar or one "
                + "value per channel)")
        }
        return tensor.floats
    }

    /// A Gemm's weights as [outputs][inputs] (alpha applied, columns in NHWC order when its input
    /// is a flattened [1,H,W,C] tensor) and its bias (beta applied), with the output count.
    private func gemm(_ node: ONNXModelFile.Node, initializers: [String: ONNXModelFile.Initializer],
                      flattened: (height: Int, width: Int, channels: Int)?) throws -> ([Float], [Float]?, Int) {
        let label = "Gemm '\(node.name)'"
        guard node.inputs.count >= 2, let b = initializers[node.inputs[1]], b.dataType == ONNXModelFile.float,
              b.dims.count == 2, let count = ShapeArithmetic.elementCount(b.dims.map { Int(clamping: $0) }),
              count == b.floatCount, count > 0 else {
            throw unsupported("\(label) needs a float32 2-D constant B")
        }
        guard node.attributes["transA"]?.integer ?? 0 == 0 else { throw unsupported("\(label) with transA") }
        let transB = node.attributes["transB"]?.integer ?? 0 != 0
        let alpha = node.attributes["alpha"]?.float ?? 1, beta = node.attributes["beta"]?.float ?? 1
        // B is [K][M], or [M][K] with transB.
        let rows = Int(b.dims[0]), columns = Int(b.dims[1])
        let outputs = transB ? rows : columns, inputs = transB ? columns : rows
        // Our input position of ONNX input column k: NCHW (c, h, w) flattening -> NHWC (h, w, c).
        var position: (Int) -> Int = { $0 }
        if let (height, width, channels) = flattened {
            guard height * width * channels == inputs else {
                throw unsupported("\(label): B has \(inputs) inputs, its input \(height)x\(width)x\(channels) values")
            }
            let plane = height * width
            position = { k in (k % plane) * channels + k / plane }
        }
        var weights = [Float](repeating: 0, count: count)
        for m in 0..<outputs {
            for k in 0..<inputs {
                weights[m * inputs + position(k)] = alpha * b.float(at: transB ? m * inputs + k : k * outputs + m)
            }
        }
        guard node.inputs.count > 2, !node.inputs[2].isEmpty else { return (weights, nil, outputs) }
        guard let c = initializers[node.inputs[2]], c.dataType == ONNXModelFile.float,
              c.floatCount == 1 || (c.floatCount == outputs && c.dims.dropLast().allSatisfy({ $0 == 1 })) else {
            throw unsupported("\(label) needs a constant C of 1 or \(outputs) values")
        }
        let bias = (0..<outputs).map { beta * c.float(at: c.floatCount == 1 ? 0 : $0) }
        return (weights, bias, outputs)
    }

    /// DequantizeLinear of constant integers: y = (x - zero point) * scale, the scale and zero
    /// point one value (per tensor), one per index of `axis` (per axis), or, with a block size,
    /// one per `blockSize` consecutive indices along `axis` (blocked: their dimensions are x's
    /// with that axis divided by the block size, rounded up).
    static func dequantize(_ x: ONNXModelFile.Initializer, scale: ONNXModelFile.Initializer,
                           zeroPoint: ONNXModelFile.Initializer?, axis: Int64, blockSize: Int64) throws
        -> ONNXModelFile.Initializer {
        let dims = x.dims.map { Int(clamping: $0) }, scaleDims = scale.dims.map { Int(clamping: $0) }
        guard x.isInteger, x.dataType != ONNXModelFile.int64, let count = ShapeArithmetic.elementCount(dims),
              count == x.integerCount else {
            throw GraphIssue("the quantised values must be an 8-, 16- or 32-bit integer tensor matching its dimensions")
        }
        guard scale.dataType == ONNXModelFile.float, let scaleCount = ShapeArithmetic.elementCount(scaleDims),
              scaleCount == scale.floatCount, scaleCount > 0 else {
            throw GraphIssue("the scale must be a float32 tensor matching its dimensions")
        }
        if let zeroPoint {
            guard zeroPoint.isInteger, zeroPoint.integerCount == scaleCount,
                  zeroPoint.dims == scale.dims || scaleCount == 1 else {
                throw GraphIssue("the zero point must be integers of the scale's shape")
            }
        }
        let rank = dims.count
        let resolved = axis < 0 ? Int(clamping: axis) + rank : Int(clamping: axis)
        // Per element: the index of its scale, from (outer, along axis, inner) coordinates.
        var outer = 1, along = 1, inner = 1, block = 1, blocks = 1
        if scaleCount == 1, blockSize == 0 {
            // Per tensor: every element uses scale 0.
            along = count
            block = max(1, count)
        } else {
            guard resolved >= 0, resolved < rank else { throw GraphIssue("axis \(axis) of a rank-\(rank) tensor") }
            outer = dims[..<resolved].reduce(1, *)
            along = dims[resolved]
            inner = dims[(resolved + 1)...].reduce(1, *)
            if blockSize == 0 {
                guard scaleDims.count == 1, scaleCount == along else {
                    throw GraphIssue("per-axis scale of shape \(scaleDims) for axis \(resolved) of \(dims)")
                }
                blocks = along
            } else {
                guard blockSize > 0, blockSize < 1 << 30 else { throw GraphIssue("block size \(blockSize)") }
                block = Int(blockSize)
                blocks = (along + block - 1) / block
                var expected = dims
                expected[resolved] = blocks
                guard scaleDims == expected else {
                    throw GraphIssue("blocked scale of shape \(scaleDims) for \(dims), axis \(resolved), block \(block) "
                        + "(expected \(expected))")
                }
            }
        }
        // Per tensor, scale 0; per axis, the index along the axis; blocked, the scale tensor's own
        // [outer][blocks][inner] position.
        let perAxis = blockSize == 0 && scaleCount > 1
        var values = x.integersAsFloats
        let scales = scale.floats
        let zeros = zeroPoint?.integersAsFloats ?? [Float](repeating: 0, count: scaleCount)
        values.withUnsafeMutableBufferPointer { values in
            var position = 0
            for o in 0..<outer {
                for a in 0..<along {
                    let row = (o * blocks + a / block) * inner
                    for i in 0..<inner {
                        let s = scaleCount == 1 ? 0 : perAxis ? a : row + i
                        values[position] = (values[position] - zeros[s]) * scales[s]
                        position += 1
                    }
                }
            }
        }
        var result = ONNXModelFile.Initializer()
        result.name = x.name
        result.dims = x.dims
        result.dataType = ONNXModelFile.float
        result.listedFloats = values
        return result
    }

    /// A constant float tensor with new dimensions (ONNX Reshape: 0 keeps the dimension, -1 is
    /// inferred).
    static func reshape(_ data: ONNXModelFile.Initializer, to target: [Int64], allowZero: Int64) throws
        -> ONNXModelFile.Initializer {
        let dims = data.dims.map { Int(clamping: $0) }
        guard data.dataType == ONNXModelFile.float, let count = ShapeArithmetic.elementCount(dims),
              count == data.floatCount else {
            throw GraphIssue("the data must be a float32 tensor matching its dimensions")
        }
        var shape: [Int] = []
        for (position, size) in target.enumerated() {
            if size == 0, allowZero == 0 {
                guard position < dims.count else { throw GraphIssue("shape \(target) copies a missing dimension") }
                shape.append(dims[position])
            } else {
                guard size >= -1, size < 1 << 40 else { throw GraphIssue("shape \(target)") }
                shape.append(Int(size))
            }
        }
        let unknown = shape.filter { $0 == -1 }.count
        guard unknown <= 1, let known = ShapeArithmetic.elementCount(shape.filter { $0 != -1 }) else {
            throw GraphIssue("shape \(target)")
        }
        if unknown == 1 {
            guard known > 0, count % known == 0 else { throw GraphIssue("cannot reshape \(dims) to \(target)") }
            shape = shape.map { $0 == -1 ? count / known : $0 }
        } else if known != count {
            throw GraphIssue("cannot reshape \(dims) to \(target)")
        }
        var result = data
        result.dims = shape.map { Int64($0) }
        return result
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

    /// Multiplies a convolution's or fully connected layer's output channels by `scale` and adds
    /// `shift` (a folded BatchNormalization or constant Mul/Sub); false when the operation is not
    /// one of those without activation.
    private func fold(_ operation: inout OperationDescription, _ tensors: inout [TensorDescription], scale: [Float],
                      shift: [Float]) throws -> Bool {
        guard operation.inputs.count > 2 else { return false }
        let filterIndex = operation.inputs[1]
        guard let filterCount = tensors[filterIndex].constant?.count else { return false }
        let shape = tensors[filterIndex].shape
        // Output channels are the first axis ([Cout][KH][KW][Cin], [M][K]) or, depthwise, the last.
        let channels: Int, channelFirst: Bool
        let perChannel = filterCount / max(1, shape.first ?? 1), last = max(1, shape.last ?? 1)
        switch operation.kind {
        case let .conv2D(parameters) where parameters.activation == .none:
            channels = shape[0]; channelFirst = true
        case let .transposeConv2D(parameters) where parameters.activation == .none:
            channels = shape[0]; channelFirst = true
        case let .depthwiseConv2D(parameters, _) where parameters.activation == .none:
            channels = last; channelFirst = false
        case .fullyConnected(.none):
            channels = shape[0]; channelFirst = true
        default:
            return false
        }
        guard channels == scale.count, channels * (channelFirst ? perChannel : filterCount / channels) == filterCount,
              var filter = tensors[filterIndex].constant else { return false }
        // Taken out of the tensor first, so the filter is scaled in place rather than in a copy.
        tensors[filterIndex].constant = nil
        filter.withUnsafeMutableBufferPointer { filter in
            if channelFirst {
                for channel in 0..<channels {
                    for position in channel * perChannel..<(channel + 1) * perChannel { filter[position] *= scale[channel] }
                }
            } else {
                for position in filter.indices { filter[position] *= scale[position % channels] }
            }
        }
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
