/// One prepared operation of a `NeuralNetwork`: a kernel with its pointers bound.
enum NetworkStep {
    case convolution(ConvolutionKernel)
    case depthwise(DepthwiseConvolutionKernel)
    case binary(BinaryKernel)
    case clamp(ClampKernel)
    case maxPool(MaxPoolKernel)
    case pad(PadKernel)
    case copy(CopyKernel)
    case concatenation(ConcatenationKernel)
    case resize(ResizeBilinearKernel)
    case transposeConvolution(TransposeConvolutionKernel)
    case sigmoid(SigmoidKernel)
    case averagePool(AveragePoolKernel)
    case fullyConnected(FullyConnectedKernel)

    @inline(__always)
    func run() {
        switch self {
        case let .convolution(kernel): kernel.run()
        case let .depthwise(kernel): kernel.run()
        case let .binary(kernel): kernel.run()
        case let .clamp(kernel): kernel.run()
        case let .maxPool(kernel): kernel.run()
        case let .pad(kernel): kernel.run()
        case let .copy(kernel): kernel.run()
        case let .concatenation(kernel): kernel.run()
        case let .resize(kernel): kernel.run()
        case let .transposeConvolution(kernel): kernel.run()
        case let .sigmoid(kernel): kernel.run()
        case let .averagePool(kernel): kernel.run()
        case let .fullyConnected(kernel): kernel.run()
        }
    }

    /// Whether `run(part:of:)` splits the work (the convolutions, where the time goes);
    /// other steps run whole on part 0.
    var isSplittable: Bool {
        switch self {
        case .convolution, .depthwise, .transposeConvolution: return true
        default: return false
        }
    }

    /// Runs share `part` of `parts` of a splittable step.
    @inline(__always)
    func run(part: Int, of parts: Int) {
        switch self {
        case let .convolution(kernel): kernel.run(part: part, of: parts)
        case let .depthwise(kernel): kernel.run(part: part, of: parts)
        case let .transposeConvolution(kernel): kernel.run(part: part, of: parts)
        default: if part == 0 { run() }
        }
    }

    /// Computes output rows `rows` of a convolution or depthwise convolution (a batch of one).
    @inline(__always)
    func run(rows: Range<Int>) {
        switch self {
        case let .convolution(kernel): kernel.run(rows: rows)
        case let .depthwise(kernel): kernel.run(rows: rows)
        default: preconditionFailure("only convolutions run by rows")
        }
    }

    /// This step reading its input from a ring of `rows` rows (`RowStripPlanner.ringRows`), or nil
    /// when its kernel cannot.
    func readingRing(_ input: UnsafePointer<Float>, rows: Int) -> NetworkStep? {
        switch self {
        case let .convolution(kernel): return .convolution(kernel.readingRing(input, rows: rows))
        case let .depthwise(kernel): return kernel.readingRing(input, rows: rows).map { .depthwise($0) }
        default: return nil
        }
    }

    /// This step writing its output to a ring of `rows` rows, or nil when its kernel cannot.
    func writingRing(_ output: UnsafeMutablePointer<Float>, rows: Int) -> NetworkStep? {
        switch self {
        case let .convolution(kernel): return .convolution(kernel.writingRing(output, rows: rows))
        case let .depthwise(kernel): return kernel.writingRing(output, rows: rows).map { .depthwise($0) }
        default: return nil
        }
    }

    /// Binds the kernel for `operation`; shapes were already checked by `ShapeInference`.
    /// `constant` gives a constant tensor's values in memory (copied on first use).
    static func make(_ operation: OperationDescription, shapes: [[Int]?], pointers: [UnsafeMutablePointer<Float>?],
                     constant constantPointer: (Int) -> UnsafeMutablePointer<Float>?,
                     tensors: [TensorDescription], storage: FloatStorage, weights: PackedWeights, step: Int,
                     path: KernelPath) throws -> NetworkStep {
        func shape(_ index: Int) -> [Int] { index >= 0 ? shapes[index] ?? [] : [] }
        func pointer(_ index: Int) throws -> UnsafeMutablePointer<Float> {
            guard index >= 0, let pointer = pointers[index] ?? constantPointer(index) else {
                throw GraphIssue("tensor \(index) has no memory")
            }
            return pointer
        }
        func constant(_ position: Int, _ what: String) throws -> [Float] {
            let index = operation.inputs[position]
            guard let values = tensors[index].constant else {
                throw GraphIssue("the \(what) '\(tensors[index].name)' must be a constant")
            }
            return values
        }
        func optionalBias() throws -> [Float]? {
            operation.inputs.count > 2 && operation.inputs[2] >= 0 ? try constant(2, "bias") : nil
        }
        let inputs = operation.inputs
        let outputIndex = operation.outputs[0]
        let output = try pointer(outputIndex)
        let outputShape = shape(outputIndex)
        let outputCount = outputShape.reduce(1, *)
        switch operation.kind {
        case let .conv2D(parameters):
            return .convolution(ConvolutionKernel(
                input: try pointer(inputs[0]), output: output, inputShape: shape(inputs[0]), outputShape: outputShape,
                filter: try constant(1, "filter"), filterShape: shape(inputs[1]), biasValues: try optionalBias(),
                parameters: parameters, storage: storage, weights: weights, step: step, path: path,
                residual: inputs.count > 3 && inputs[3] >= 0 ? UnsafePointer(try pointer(inputs[3])) : nil,
                slopeValues: inputs.count > 4 ? try constant(4, "PReLU slope") : nil))
        case let .depthwiseConv2D(parameters, multiplier):
            return .depthwise(DepthwiseConvolutionKernel(
                input: try pointer(inputs[0]), output: output, inputShape: shape(inputs[0]), outputShape: outputShape,
                filter: try constant(1, "filter"), filterShape: shape(inputs[1]), biasValues: try optionalBias(),
                multiplier: multiplier, parameters: parameters, storage: storage, weights: weights, step: step, path: path))
        case .add, .prelu:
            let period = ShapeInference.broadcastPeriod(of: shape(inputs[1]), over: shape(inputs[0])) ?? outputCount
            var clamp = ClampRange(.none)
            var kind = BinaryKernel.Operation.prelu
            if case let .add(activation) = operation.kind { clamp = ClampRange(activation); kind = .add }
            var second = UnsafePointer(try pointer(inputs[1]))
            if period == 1, shape(inputs[1]).reduce(1, *) == 1 {
                // A scalar operand: widen it once so the kernel keeps its vector loop.
                // (Constants are copied at load, so their value is known here.)
                guard let value = tensors[inputs[1]].constant?.first else {
                    throw GraphIssue("a scalar second operand must be a constant")
                }
                let widened = storage.allocate(64)
                widened.update(repeating: value, count: 64)
                second = UnsafePointer(widened)
                return .binary(BinaryKernel(operation: kind, a: try pointer(inputs[0]), b: second, output: output,
                                            count: outputCount, period: 64, clamp: clamp))
            }
            return .binary(BinaryKernel(operation: kind, a: try pointer(inputs[0]), b: second, output: output,
                                        count: outputCount, period: period, clamp: clamp))
        case let .transposeConv2D(parameters):
            return .transposeConvolution(TransposeConvolutionKernel(
                input: try pointer(inputs[0]), output: output, inputShape: shape(inputs[0]), outputShape: outputShape,
                filter: try constant(1, "filter"), filterShape: shape(inputs[1]), biasValues: try optionalBias(),
                parameters: parameters, storage: storage, path: path))
        case .sigmoid:
            return .sigmoid(SigmoidKernel(input: try pointer(inputs[0]), output: output, count: outputCount))
        case let .activation(activation):
            return .clamp(ClampKernel(input: try pointer(inputs[0]), output: output, count: outputCount,
                                      clamp: ClampRange(activation)))
        case let .maxPool2D(parameters):
            let data = shape(inputs[0])
            return .maxPool(MaxPoolKernel(input: try pointer(inputs[0]), output: output, batch: data[0], inH: data[1],
                                          inW: data[2], channels: data[3], outH: outputShape[1], outW: outputShape[2],
                                          parameters: parameters, clamp: ClampRange(parameters.activation)))
        case let .averagePool2D(parameters):
            let data = shape(inputs[0])
            return .averagePool(AveragePoolKernel(input: try pointer(inputs[0]), output: output, batch: data[0],
                                                  inH: data[1], inW: data[2], channels: data[3], outH: outputShape[1],
                                                  outW: outputShape[2], parameters: parameters))
        case let .fullyConnected(activation):
            return .fullyConnected(FullyConnectedKernel(
                input: try pointer(inputs[0]), output: output, batch: outputShape[0], outputs: outputShape[1],
                weights: try constant(1, "weights"), biasValues: try optionalBias(), clamp: ClampRange(activation),
                storage: storage))
        case let .pad(amounts):
            let data = shape(inputs[0])
            let missing = 4 - data.count
            return .pad(PadKernel(input: try pointer(inputs[0]), output: output,
                                  inShape: Array(repeating: 1, count: missing) + data,
                                  outShape: Array(repeating: 1, count: missing) + outputShape,
                                  before: Array(repeating: 0, count: missing) + amounts.map(\.before),
                                  outputCount: outputCount))
        case .reshape:
            return .copy(CopyKernel(input: try pointer(inputs[0]), output: output, count: outputCount))
        case let .concatenation(axis, activation):
            let resolved = axis < 0 ? axis + outputShape.count : axis
            let outer = outputShape.prefix(resolved).reduce(1, *)
            return .concatenation(ConcatenationKernel(
                inputs: try inputs.map { UnsafePointer(try pointer($0)) },
                blockSizes: inputs.map { shape($0).suffix(from: resolved).reduce(1, *) },
                output: output, outerCount: outer, clamp: ClampRange(activation)))
        case let .resizeBilinear(height, width, alignCorners, halfPixelCenters):
            return .resize(ResizeBilinearKernel(input: try pointer(inputs[0]), output: output,
                                                inputShape: shape(inputs[0]), outH: height, outW: width,
                                                alignCorners: alignCorners, halfPixelCenters: halfPixelCenters))
        }
    }
}

/// Kernels hold raw pointers into the network's storage. They are shared with Dispatch workers
/// only inside `NeuralNetwork.run(threads:)`, where each worker writes a disjoint share of one
/// output and only reads inputs and weights, and the call waits for all workers.
extension NetworkStep: @unchecked Sendable {}
