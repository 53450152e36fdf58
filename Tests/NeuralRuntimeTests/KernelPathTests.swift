import NeuralKernels
import XCTest
@testable import NeuralRuntime

/// The C kernels (NeuralKernels) on every instruction-set path this machine supports, against
/// plain reference loops: shapes chosen to leave partial pixel tiles (6 or 8 pixels), partial
/// channel panels (8, 16 or 32 channels) and padding on every side, plus strides, dilation,
/// batches, activations and thread splits.
final class KernelPathTests: XCTestCase {
    private struct Case {
        var batch = 1, height: Int, width: Int, inC: Int, outC: Int, kernel: Int
        var stride = 1, dilation = 1, same = true
        var activation = Activation.none
        var depthwise = false
    }

    private func parameters(_ c: Case) -> ConvolutionParameters {
        let effective = (c.kernel - 1) * c.dilation + 1
        let padding: SpatialPadding = c.same
            ? .same(inputHeight: c.height, inputWidth: c.width, kernelHeight: effective, kernelWidth: effective,
                    strideH: c.stride, strideW: c.stride)
            : .zero
        return ConvolutionParameters(strideH: c.stride, strideW: c.stride, dilationH: c.dilation, dilationW: c.dilation,
                                     padding: padding, activation: c.activation)
    }

    /// Plain convolution or depthwise convolution (multiplier 1) with the activation applied.
    private func reference(_ c: Case, input: [Float], filter: [Float], bias: [Float], outH: Int, outW: Int) -> [Float] {
        let p = parameters(c)
        let clamp = ClampRange(c.activation)
        var out = [Float](repeating: 0, count: c.batch * outH * outW * c.outC)
        for n in 0..<c.batch {
            for oy in 0..<outH {
                for ox in 0..<outW {
                    for o in 0..<c.outC {
                        var sum = bias[o]
                        for ky in 0..<c.kernel {
                            for kx in 0..<c.kernel {
                                let iy = oy * c.stride - p.padding.top + ky * c.dilation
                                let ix = ox * c.stride - p.padding.left + kx * c.dilation
                                if iy < 0 || iy >= c.height || ix < 0 || ix >= c.width { continue }
                                let pixel = ((n * c.height + iy) * c.width + ix) * c.inC
                                if c.depthwise {
                                    sum += input[pixel + o] * filter[(ky * c.kernel + kx) * c.outC + o]
                                } else {
                                    for i in 0..<c.inC {
                                        sum += input[pixel + i] * filter[((o * c.kernel + ky) * c.kernel + kx) * c.inC + i]
                                    }
                                }
                            }
                        }
                        out[((n * outH + oy) * outW + ox) * c.outC + o] = min(max(sum, clamp.lower), clamp.upper)
                    }
                }
            }
        }
        return out
    }

    private func check(_ c: Case, file: StaticString = #filePath, line: UInt = #line) throws {
        let input = TestSupport.values(c.batch * c.height * c.width * c.inC, seed: 1, scale: 2)
        let taps = c.kernel * c.kernel
        let filterShape = c.depthwise ? [1, c.kernel, c.kernel, c.outC] : [c.outC, c.kernel, c.kernel, c.inC]
        let filter = TestSupport.values(filterShape.reduce(1, *), seed: 2, scale: 1 / Float(taps).squareRoot())
        let bias = TestSupport.values(c.outC, seed: 3, scale: 1)
        let kind: OperationKind = c.depthwise ? .depthwiseConv2D(parameters(c), depthMultiplier: 1) : .conv2D(parameters(c))
        let graph = GraphDescription(
            tensors: [TensorDescription(name: "in", shape: [c.batch, c.height, c.width, c.inC]),
                      TensorDescription(name: "filter", shape: filterShape, constant: filter),
                      TensorDescription(name: "bias", shape: [c.outC], constant: bias),
                      TensorDescription(name: "out", shape: [])],
            operations: [OperationDescription(kind: kind, inputs: [0, 1, 2], outputs: [3])],
            inputs: [0], outputs: [3], name: "kernel test")
        for path in KernelPath.supported {
            let network = try NeuralNetwork(graph: graph, kernelPath: path)
            let shape = network.outputShapes[0]
            let expected = reference(c, input: input, filter: filter, bias: bias, outH: shape[1], outW: shape[2])
            for threads in [1, 3] {
                _ = network.input(0).update(from: input)
                network.run(threads: threads)
                TestSupport.assertClose(network.output(0), expected, "\(c) on \(path), \(threads) thread(s)",
                                        file: file, line: line)
            }
        }
    }

    func testSupportedPathsIncludeTheDefault() {
        XCTAssertTrue(KernelPath.supported.contains(.generic))
        XCTAssertTrue(KernelPath.supported.contains(.default))
    }

    func testPointwiseTilesAndPanels() throws {
        // Pixel counts around the 6- and 8-pixel tiles, channel counts around the 8/16/32 panels.
        for (width, inC, outC) in [(1, 1, 1), (5, 7, 20), (13, 16, 24), (17, 33, 40), (9, 96, 32), (23, 24, 144)] {
            try check(Case(height: 3, width: width, inC: inC, outC: outC, kernel: 1, same: false))
        }
        try check(Case(batch: 2, height: 4, width: 7, inC: 12, outC: 36, kernel: 1, same: false, activation: .relu6))
    }

    func testRegularConvolutionsWithPaddingStridesAndDilation() throws {
        try check(Case(height: 11, width: 13, inC: 3, outC: 32, kernel: 3, stride: 2, activation: .relu))
        try check(Case(height: 9, width: 10, inC: 24, outC: 24, kernel: 3))
        try check(Case(height: 12, width: 9, inC: 3, outC: 24, kernel: 5, stride: 2))
        try check(Case(height: 9, width: 8, inC: 5, outC: 10, kernel: 3, stride: 3, same: false))
        try check(Case(height: 10, width: 11, inC: 4, outC: 17, kernel: 3, dilation: 2, activation: .reluMinus1To1))
        try check(Case(batch: 2, height: 6, width: 7, inC: 9, outC: 40, kernel: 2, stride: 2, same: false))
    }

    /// Wide rows: whole tiles of interior pixels read one pointer per kernel row (kernel_w * in_c
    /// contiguous floats), tiles touching the left or right padding one per tap.
    func testInteriorTilesReadWholeKernelRows() throws {
        try check(Case(height: 5, width: 40, inC: 3, outC: 32, kernel: 3, stride: 2, activation: .relu))
        try check(Case(height: 4, width: 37, inC: 24, outC: 24, kernel: 3))
        try check(Case(batch: 2, height: 6, width: 50, inC: 3, outC: 24, kernel: 5, stride: 2))
        try check(Case(height: 3, width: 45, inC: 8, outC: 16, kernel: 3, stride: 1, same: false))
    }

    func testDepthwiseStridesChannelTailsAndEdges() throws {
        for channels in [1, 3, 8, 17, 24, 40] {
            try check(Case(height: 7, width: 9, inC: channels, outC: channels, kernel: 3, depthwise: true))
            try check(Case(height: 8, width: 11, inC: channels, outC: channels, kernel: 3, stride: 2,
                           activation: .relu6, depthwise: true))
        }
        try check(Case(height: 9, width: 10, inC: 20, outC: 20, kernel: 5, stride: 2, depthwise: true))
        try check(Case(height: 9, width: 10, inC: 19, outC: 19, kernel: 3, dilation: 2, depthwise: true))
        try check(Case(height: 4, width: 2, inC: 16, outC: 16, kernel: 5, depthwise: true))
        try check(Case(batch: 2, height: 5, width: 6, inC: 33, outC: 33, kernel: 3, same: false, activation: .relu,
                       depthwise: true))
    }

    /// Every output written with streaming stores (aligned outputs whose channels fill whole vectors).
    func testStreamingStoresGiveTheSameResults() throws {
        nk_set_stream_threshold(0)
        defer { nk_set_stream_threshold(24 << 20) }
        try check(Case(height: 5, width: 21, inC: 16, outC: 64, kernel: 1, same: false, activation: .relu))
        try check(Case(height: 6, width: 19, inC: 8, outC: 32, kernel: 3, stride: 2))
        try check(Case(height: 7, width: 9, inC: 48, outC: 48, kernel: 3, activation: .relu6, depthwise: true))
    }

    // MARK: Fused residual ADD and PRELU

    /// conv -> ADD(residual) [-> activation] -> PRELU graphs: the fused network must give what the
    /// operations give one by one (checked against plain loops).
    private func checkFusion(addActivation: Activation?, prelu: Bool, residualFirst: Bool, lateResidual: Bool = false,
                             expectedSteps: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let (h, w, cin, cout) = (5, 11, 6, 20)
        let c = Case(height: h, width: w, inC: cin, outC: cout, kernel: 3)
        let input = TestSupport.values(h * w * cin, seed: 1, scale: 2)
        let filter = TestSupport.values(cout * 9 * cin, seed: 2, scale: 0.3), bias = TestSupport.values(cout, seed: 3, scale: 1)
        let slopes = TestSupport.values(cout, seed: 4, scale: 0.5)
        var tensors = [TensorDescription(name: "in", shape: [1, h, w, cin]),
                       TensorDescription(name: "filter", shape: [cout, 3, 3, cin], constant: filter),
                       TensorDescription(name: "bias", shape: [cout], constant: bias),
                       TensorDescription(name: "conv", shape: []),
                       TensorDescription(name: "skip filter", shape: [cout, 1, 1, cin], constant: TestSupport.values(cout * cin, seed: 5, scale: 0.5)),
                       TensorDescription(name: "skip", shape: []),
                       TensorDescription(name: "sum", shape: []),
                       TensorDescription(name: "slopes", shape: [1, 1, cout], constant: slopes),
                       TensorDescription(name: "out", shape: [])]
        // A late skip has an activation of its own, so the ADD cannot fold into it either.
        let skipActivation: Activation = lateResidual ? .relu : .none
        let skip = OperationDescription(kind: .conv2D(ConvolutionParameters(activation: skipActivation)), inputs: [0, 4],
                                        outputs: [5])
        let conv = OperationDescription(kind: .conv2D(parameters(c)), inputs: [0, 1, 2], outputs: [3])
        var operations = lateResidual ? [conv, skip] : [skip, conv]
        var last = 3
        if let addActivation {
            operations.append(OperationDescription(kind: .add(addActivation), inputs: residualFirst ? [5, 3] : [3, 5],
                                                   outputs: [6]))
            last = 6
        }
        if prelu {
            operations.append(OperationDescription(kind: .prelu, inputs: [last, 7], outputs: [8]))
            last = 8
        }
        tensors[last].name = "result"
        let graph = GraphDescription(tensors: tensors, operations: operations, inputs: [0], outputs: [last], name: "fusion")
        // Reference: the convolution, the skip 1x1, then the epilogue by hand.
        var expected = reference(c, input: input, filter: filter, bias: bias, outH: h, outW: w)
        if let addActivation {
            let skipCase = Case(height: h, width: w, inC: cin, outC: cout, kernel: 1, same: false)
            let skipValues = reference(skipCase, input: input, filter: tensors[4].constant!,
                                       bias: [Float](repeating: 0, count: cout), outH: h, outW: w)
                .map { lateResidual ? max(0, $0) : $0 }
            let clamp = ClampRange(addActivation)
            expected = zip(expected, skipValues).map { min(max($0 + $1, clamp.lower), clamp.upper) }
        }
        if prelu { expected = expected.enumerated().map { $1 < 0 ? $1 * slopes[$0 % cout] : $1 } }
        for path in KernelPath.supported {
            let network = try NeuralNetwork(graph: graph, kernelPath: path)
            XCTAssertEqual(network.stepsForProfiling.count, expectedSteps, "steps after fusion", file: file, line: line)
            _ = network.input(0).update(from: input)
            network.run()
            TestSupport.assertClose(network.output(0), expected, "fusion on \(path)", file: file, line: line)
        }
    }

    func testResidualAddAndPReluFuseIntoTheConvolution() throws {
        try checkFusion(addActivation: Activation.none, prelu: false, residualFirst: false, expectedSteps: 2)
        try checkFusion(addActivation: .relu, prelu: false, residualFirst: true, expectedSteps: 2)
        try checkFusion(addActivation: .relu6, prelu: true, residualFirst: false, expectedSteps: 3)
        try checkFusion(addActivation: Activation.none, prelu: true, residualFirst: true, expectedSteps: 2)
        try checkFusion(addActivation: nil, prelu: true, residualFirst: false, expectedSteps: 2)
    }

    /// A residual computed after the convolution cannot be read by it: the ADD stays.
    func testLateResidualIsNotFused() throws {
        try checkFusion(addActivation: .relu, prelu: false, residualFirst: false, lateResidual: true, expectedSteps: 3)
    }

    // MARK: Transposed convolution

    /// The per-tap products (stride = kernel) and the gathering kernel against a plain scatter loop,
    /// whole and split across threads, on every path.
    func testTransposedConvolutionGathersWhatAScatterWrites() throws {
        for (kernel, stride, top, left, bottom, right, inC, outC) in [(2, 2, 0, 0, 0, 0, 24, 24), (2, 2, 0, 0, 0, 0, 7, 40), (3, 3, 0, 0, 0, 0, 16, 8),
                                                                        (3, 2, 1, 1, 0, 0, 5, 11),
                                                                        (4, 2, 1, 1, 1, 1, 9, 17), (3, 1, 1, 1, 1, 1, 4, 8)] {
            let (h, w) = (5, 7)
            let input = TestSupport.values(h * w * inC, seed: 1, scale: 2)
            let filter = TestSupport.values(outC * kernel * kernel * inC, seed: 2, scale: 0.4), bias = TestSupport.values(outC, seed: 3, scale: 1)
            let padding = SpatialPadding(top: top, left: left, bottom: bottom, right: right)
            let outH = (h - 1) * stride + kernel - top - bottom, outW = (w - 1) * stride + kernel - left - right
            var expected = [Float](repeating: 0, count: outH * outW * outC)
            for p in 0..<(outH * outW) { for o in 0..<outC { expected[p * outC + o] = bias[o] } }
            for iy in 0..<h {
                for ix in 0..<w {
                    for ky in 0..<kernel {
                        for kx in 0..<kernel {
                            let oy = iy * stride + ky - top, ox = ix * stride + kx - left
                            if oy < 0 || oy >= outH || ox < 0 || ox >= outW { continue }
                            for o in 0..<outC {
                                for i in 0..<inC {
                                    expected[(oy * outW + ox) * outC + o] += input[(iy * w + ix) * inC + i]
                                        * filter[((o * kernel + ky) * kernel + kx) * inC + i]
                                }
                            }
                        }
                    }
                }
            }
            let parameters = ConvolutionParameters(strideH: stride, strideW: stride, padding: padding, activation: .none)
            let graph = GraphDescription(
                tensors: [TensorDescription(name: "in", shape: [1, h, w, inC]),
                          TensorDescription(name: "filter", shape: [outC, kernel, kernel, inC], constant: filter),
                          TensorDescription(name: "bias", shape: [outC], constant: bias),
                          TensorDescription(name: "out", shape: [])],
                operations: [OperationDescription(kind: .transposeConv2D(parameters), inputs: [0, 1, 2], outputs: [3])],
                inputs: [0], outputs: [3], name: "transposed")
            for path in KernelPath.supported {
                let network = try NeuralNetwork(graph: graph, kernelPath: path)
                XCTAssertEqual(network.outputShapes[0], [1, outH, outW, outC])
                for threads in [1, 3] {
                    _ = network.input(0).update(from: input)
                    network.run(threads: threads)
                    TestSupport.assertClose(network.output(0), expected,
                                            "kernel \(kernel) stride \(stride) on \(path), \(threads) thread(s)")
                }
            }
        }
    }
}
