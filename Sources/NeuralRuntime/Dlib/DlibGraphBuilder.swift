/// Translates a `DlibModelFile` (dlib's NCHW layers) into a `GraphDescription` (NHWC): filters
/// transposed once here, each affine folded into the convolution before it, tags and skips
/// resolved to tensors, and each `add_prev` of unequal shapes zero-padded at the end of every
/// axis to the larger shape, which is how dlib adds them.
struct DlibGraphBuilder {
    let file: DlibModelFile
    let layout: [DlibLayerKind]
    let name: String

    private var tensors: [TensorDescription] = []
    private var operations: [OperationDescription] = []

    init(file: DlibModelFile, layout: [DlibLayerKind], name: String) {
        self.file = file
        self.layout = layout
        self.name = name
    }

    private func invalid(_ reason: String) -> NeuralRuntimeError { .invalidGraph(model: name, reason: reason) }

    mutating func build() throws -> GraphDescription {
        tensors = [TensorDescription(name: "input", shape: [1, file.inputRows, file.inputColumns, 3])]
        operations = []
        var current = 0
        var tags: [Int: Int] = [:]
        var record = 0
        var position = 0
        while position < layout.count {
            let kind = layout[position]
            position += 1
            switch kind {
            case let .tag(number):
                tags[number] = current
                continue
            case let .skip(number):
                guard let tagged = tags[number] else { throw invalid("skip\(number) before any tag\(number)") }
                current = tagged
                continue
            default:
                break
            }
            guard record < file.layers.count else { throw invalid("fewer layer records than the layout has") }
            let layer = file.layers[record]
            record += 1
            let label = "layer\(position - 1)"
            switch layer {
            case let .convolution(filters, filterShape, bias, strideY, strideX, paddingY, paddingX, relu):
                // A following affine (frozen batch normalisation) scales and shifts each output channel.
                var gamma = [Float](repeating: 1, count: filterShape[0]), beta = [Float](repeating: 0, count: filterShape[0])
                if position < layout.count, layout[position] == .affine, record < file.layers.count,
                   case let .affine(nextGamma, nextBeta) = file.layers[record] {
                    guard nextGamma.count == gamma.count else {
                        throw invalid("\(label): affine of \(nextGamma.count) channels after \(gamma.count) filters")
                    }
                    gamma = nextGamma
                    beta = nextBeta
                    record += 1
                    position += 1
                }
                let (outputs, inputs, rows, columns) = (filterShape[0], filterShape[1], filterShape[2], filterShape[3])
                var packed = [Float](repeating: 0, count: filters.count)
                for o in 0..<outputs {
                    for c in 0..<inputs {
                        for y in 0..<rows {
                            for x in 0..<columns {
                                packed[((o * rows + y) * columns + x) * inputs + c] =
                                    filters[((o * inputs + c) * rows + y) * columns + x] * gamma[o]
                            }
                        }
                    }
                }
                let filter = constant("\(label).filter", packed, shape: [outputs, rows, columns, inputs])
                let shifted = constant("\(label).bias", (0..<outputs).map { bias[$0] * gamma[$0] + beta[$0] },
                                       shape: [outputs])
                let parameters = ConvolutionParameters(
                    strideH: strideY, strideW: strideX,
                    padding: SpatialPadding(top: paddingY, left: paddingX, bottom: paddingY, right: paddingX),
                    activation: relu ? .relu : .none)
                current = try append(.conv2D(parameters), [current, filter, shifted], label)
            case .affine:
                throw invalid("\(label): an affine layer that does not follow a convolution")
            case .relu:
                current = try append(.activation(.relu), [current], label)
            case .identity:
                break
            case .addPrevious:
                guard case let .addPrevious(number) = kind, let tagged = tags[number] else {
                    throw invalid("\(label): add_prev without its tag")
                }
                let a = tensors[current].shape, b = tensors[tagged].shape
                guard a.count == 4, b.count == 4, a[0] == b[0] else { throw invalid("\(label): cannot add \(a) and \(b)") }
                let target = zip(a, b).map { max($0, $1) }
                let left = try padded(current, to: target, label: "\(label).a")
                let right = try padded(tagged, to: target, label: "\(label).b")
                current = try append(.add(.none), [left, right], label)
            case let .maxPool(window):
                current = try append(.maxPool2D(pool(window, over: tensors[current].shape)), [current], label)
            case let .averagePool(window):
                current = try append(.averagePool2D(pool(window, over: tensors[current].shape)), [current], label)
            case let .fullyConnected(weights, inputs, outputs, bias):
                // dlib flattens [C][H][W]; the runtime flattens [H][W][C].
                let shape = tensors[current].shape
                guard shape.count == 4, shape[1] * shape[2] * shape[3] == inputs else {
                    throw invalid("\(label): \(inputs) inputs after a \(shape) tensor")
                }
                let (height, width, channels) = (shape[1], shape[2], shape[3])
                var packed = [Float](repeating: 0, count: weights.count)
                for m in 0..<outputs {
                    for y in 0..<height {
                        for x in 0..<width {
                            for c in 0..<channels {
                                packed[m * inputs + (y * width + x) * channels + c] =
                                    weights[((c * height + y) * width + x) * outputs + m]
                            }
                        }
                    }
                }
                let matrix = constant("\(label).weights", packed, shape: [outputs, inputs])
                let biasIndex = bias.map { constant("\(label).bias", $0, shape: [outputs]) } ?? -1
                current = try append(.fullyConnected(.none), [current, matrix, biasIndex], label)
            }
        }
        guard record == file.layers.count else { throw invalid("more layer records than the layout has") }
        return GraphDescription(tensors: tensors, operations: operations, inputs: [0], outputs: [current], name: name)
    }

    private mutating func constant(_ label: String, _ values: [Float], shape: [Int]) -> Int {
        tensors.append(TensorDescription(name: label, shape: shape, constant: values))
        return tensors.count - 1
    }

    /// Adds an operation and its output tensor, with the output's shape inferred now (later
    /// layers need it: global pooling, add_prev padding).
    private mutating func append(_ kind: OperationKind, _ inputs: [Int], _ label: String) throws -> Int {
        let inputShapes: [[Int]?] = inputs.map { $0 >= 0 ? tensors[$0].shape : nil }
        let shape: [Int]
        do {
            shape = try ShapeInference.outputShape(kind, inputs: inputShapes)
        } catch let issue as GraphIssue {
            throw invalid("\(label): \(issue.reason)")
        }
        tensors.append(TensorDescription(name: label, shape: shape))
        operations.append(OperationDescription(kind: kind, inputs: inputs, outputs: [tensors.count - 1]))
        return tensors.count - 1
    }

    /// `tensor` zero-padded at the end of each axis to `target` (itself when it already fits).
    private mutating func padded(_ tensor: Int, to target: [Int], label: String) throws -> Int {
        let shape = tensors[tensor].shape
        guard shape != target else { return tensor }
        return try append(.pad(zip(shape, target).map { PadAmount(before: 0, after: $1 - $0) }), [tensor], label)
    }

    /// Pooling parameters for `window` over an NHWC `shape` (a 0x0 window covers the whole input).
    private func pool(_ window: DlibModelFile.Window, over shape: [Int]) -> PoolParameters {
        let whole = window.rows == 0 && shape.count == 4
        return PoolParameters(filterH: whole ? shape[1] : window.rows, filterW: whole ? shape[2] : window.columns,
                              strideH: window.strideY, strideW: window.strideX,
                              padding: SpatialPadding(top: window.paddingY, left: window.paddingX,
                                                      bottom: window.paddingY, right: window.paddingX))
    }
}
