import XCTest
@testable import NeuralRuntime

/// Each operation on small hand-computed cases, plus larger cases against straightforward
/// reference loops (which exercise the vector tiles and their tails).
final class OperationTests: XCTestCase {
    /// Runs a one-operation graph: input 0 is fed `input`, constants follow.
    private func run(_ kind: OperationKind, input: [Float], shape: [Int], constants: [([Int], [Float])] = [],
                     absentBias: Bool = false, outputShape: [Int] = []) throws -> (shape: [Int], values: [Float]) {
        var tensors = [TensorDescription(name: "in", shape: shape)]
        var inputs = [0]
        for (index, constant) in constants.enumerated() {
            tensors.append(TensorDescription(name: "c\(index)", shape: constant.0, constant: constant.1))
            inputs.append(index + 1)
        }
        if absentBias { inputs.append(-1) }
        tensors.append(TensorDescription(name: "out", shape: outputShape))
        let graph = GraphDescription(tensors: tensors,
                                     operations: [OperationDescription(kind: kind, inputs: inputs,
                                                                       outputs: [tensors.count - 1])],
                                     inputs: [0], outputs: [tensors.count - 1], name: "test")
        let network = try NeuralNetwork(graph: graph)
        _ = network.input(0).update(from: input)
        network.run()
        return (network.outputShapes[0], Array(network.output(0)))
    }

    private func assertClose(_ actual: [Float], _ expected: [Float], _ accuracy: Float = 1e-4,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, file: file, line: line)
        for (index, (a, e)) in zip(actual, expected).enumerated() where abs(a - e) > accuracy * max(1, abs(e)) {
            XCTFail("element \(index): \(a) != \(e)", file: file, line: line)
            return
        }
    }

    private func ramp(_ count: Int, scale: Float = 0.1) -> [Float] {
        (0..<count).map { Float(($0 * 37) % 23 - 11) * scale }
    }

    // MARK: Convolution

    func testConv3x3Stride2SameByHand() throws {
        // 4x4 input 1..16, 3x3 filter of ones, stride 2, SAME: pad top/left 0, bottom/right 1.
        let input = (1...16).map(Float.init)
        let padding = SpatialPadding.same(inputHeight: 4, inputWidth: 4, kernelHeight: 3, kernelWidth: 3,
                                          strideH: 2, strideW: 2)
        XCTAssertEqual(padding, SpatialPadding(top: 0, left: 0, bottom: 1, right: 1))
        let result = try run(.conv2D(ConvolutionParameters(strideH: 2, strideW: 2, padding: padding)),
                             input: input, shape: [1, 4, 4, 1],
                             constants: [([1, 3, 3, 1], [Float](repeating: 1, count: 9)), ([1], [0.5])])
        XCTAssertEqual(result.shape, [1, 2, 2, 1])
        // (0,0): rows 0-2, cols 0-2 = 1+2+3+5+6+7+9+10+11 = 54; (0,1): cols 2-3 = 3+4+7+8+11+12 = 45;
        // (1,0): rows 2-3 = 9+10+11+13+14+15 = 72; (1,1): 11+12+15+16 = 54.
        assertClose(result.values, [54.5, 45.5, 72.5, 54.5])
    }

    func testConvFusedActivations() throws {
        let input: [Float] = [-2, 1, 3, 8]
        let filter: [Float] = [1]
        let relu6 = try run(.conv2D(ConvolutionParameters(activation: .relu6)), input: input, shape: [1, 2, 2, 1],
                            constants: [([1, 1, 1, 1], filter)], absentBias: true)
        assertClose(relu6.values, [0, 1, 3, 6])
        let relu = try run(.conv2D(ConvolutionParameters(activation: .relu)), input: input, shape: [1, 2, 2, 1],
                           constants: [([1, 1, 1, 1], filter)], absentBias: true)
        assertClose(relu.values, [0, 1, 3, 8])
    }

    /// TFLite convolution written as plainly as possible.
    private func referenceConv(_ input: [Float], _ shape: [Int], _ filter: [Float], _ filterShape: [Int],
                               _ bias: [Float], _ p: ConvolutionParameters, outH: Int, outW: Int) -> [Float] {
        let (h, w, c) = (shape[1], shape[2], shape[3])
        let (co, kh, kw) = (filterShape[0], filterShape[1], filterShape[2])
        var out = [Float](repeating: 0, count: outH * outW * co)
        for oy in 0..<outH {
            for ox in 0..<outW {
                for o in 0..<co {
                    var sum = bias[o]
                    for ky in 0..<kh {
                        for kx in 0..<kw {
                            let iy = oy * p.strideH - p.padding.top + ky, ix = ox * p.strideW - p.padding.left + kx
                            if iy < 0 || iy >= h || ix < 0 || ix >= w { continue }
                            for i in 0..<c { sum += input[(iy * w + ix) * c + i] * filter[((o * kh + ky) * kw + kx) * c + i] }
                        }
                    }
                    out[(oy * outW + ox) * co + o] = sum
                }
            }
        }
        return out
    }

    func testPointwiseConvTilesAndTails() throws {
        // 5 pixels (a 4-pixel tile plus one), 20 output channels (a 16-wide tile plus a partial 8).
        let shape = [1, 1, 5, 7]
        let input = ramp(35), filter = ramp(20 * 7, scale: 0.05), bias = ramp(20, scale: 0.3)
        let result = try run(.conv2D(ConvolutionParameters()), input: input, shape: shape,
                             constants: [([20, 1, 1, 7], filter), ([20], bias)])
        XCTAssertEqual(result.shape, [1, 1, 5, 20])
        assertClose(result.values, referenceConv(input, shape, filter, [20, 1, 1, 7], bias, ConvolutionParameters(),
                                                 outH: 1, outW: 5))
    }

    func testGeneralConvValidStride3AndSame5x5() throws {
        let shape = [1, 9, 8, 3]
        let input = ramp(9 * 8 * 3)
        let filter3 = ramp(10 * 3 * 3 * 3, scale: 0.02), bias3 = ramp(10)
        let valid = ConvolutionParameters(strideH: 3, strideW: 3)
        let r1 = try run(.conv2D(valid), input: input, shape: shape,
                         constants: [([10, 3, 3, 3], filter3), ([10], bias3)])
        XCTAssertEqual(r1.shape, [1, 3, 2, 10])
        assertClose(r1.values, referenceConv(input, shape, filter3, [10, 3, 3, 3], bias3, valid, outH: 3, outW: 2))

        let filter5 = ramp(24 * 5 * 5 * 3, scale: 0.01), bias5 = ramp(24)
        let same = ConvolutionParameters(strideH: 2, strideW: 2, padding: .same(
            inputHeight: 9, inputWidth: 8, kernelHeight: 5, kernelWidth: 5, strideH: 2, strideW: 2))
        let r2 = try run(.conv2D(same), input: input, shape: shape, constants: [([24, 5, 5, 3], filter5), ([24], bias5)])
        XCTAssertEqual(r2.shape, [1, 5, 4, 24])
        assertClose(r2.values, referenceConv(input, shape, filter5, [24, 5, 5, 3], bias5, same, outH: 5, outW: 4))
    }

    func testGeneralConvRowTiles() throws {
        // Wide rows give runs of 4 interior pixels (the tiled path) plus edge pixels; 24 output
        // channels give a 16-wide block and an 8-wide block.
        let shape = [1, 5, 21, 3]
        let input = ramp(5 * 21 * 3)
        for stride in [1, 2] {
            let filter = ramp(24 * 3 * 3 * 3, scale: 0.03), bias = ramp(24)
            let p = ConvolutionParameters(strideH: stride, strideW: stride, padding: .same(
                inputHeight: 5, inputWidth: 21, kernelHeight: 3, kernelWidth: 3, strideH: stride, strideW: stride),
                                          activation: .relu6)
            let result = try run(.conv2D(p), input: input, shape: shape, constants: [([24, 3, 3, 3], filter), ([24], bias)])
            let outH = (5 + stride - 1) / stride, outW = (21 + stride - 1) / stride
            XCTAssertEqual(result.shape, [1, outH, outW, 24])
            assertClose(result.values, referenceConv(input, shape, filter, [24, 3, 3, 3], bias, p, outH: outH, outW: outW)
                .map { min(6, max(0, $0)) })
        }
    }

    // MARK: Depthwise

    func testDepthwiseByHand() throws {
        // 3x3 single channel, 3x3 filter of ones, SAME stride 1: each output sums its neighbourhood.
        let input = (1...9).map(Float.init)
        let same = SpatialPadding.same(inputHeight: 3, inputWidth: 3, kernelHeight: 3, kernelWidth: 3,
                                       strideH: 1, strideW: 1)
        let result = try run(.depthwiseConv2D(ConvolutionParameters(padding: same), depthMultiplier: 1),
                             input: input, shape: [1, 3, 3, 1],
                             constants: [([1, 3, 3, 1], [Float](repeating: 1, count: 9)), ([1], [0])])
        assertClose(result.values, [12, 21, 16, 27, 45, 33, 24, 39, 28])
    }

    private func referenceDepthwise(_ input: [Float], _ shape: [Int], _ filter: [Float], k: Int, multiplier: Int,
                                    _ bias: [Float], _ p: ConvolutionParameters, outH: Int, outW: Int) -> [Float] {
        let (h, w, c) = (shape[1], shape[2], shape[3])
        let co = c * multiplier
        var out = [Float](repeating: 0, count: outH * outW * co)
        for oy in 0..<outH {
            for ox in 0..<outW {
                for o in 0..<co {
                    var sum = bias[o]
                    for ky in 0..<k {
                        for kx in 0..<k {
                            let iy = oy * p.strideH - p.padding.top + ky, ix = ox * p.strideW - p.padding.left + kx
                            if iy < 0 || iy >= h || ix < 0 || ix >= w { continue }
                            sum += input[(iy * w + ix) * c + o / multiplier] * filter[(ky * k + kx) * co + o]
                        }
                    }
                    out[(oy * outW + ox) * co + o] = sum
                }
            }
        }
        return out
    }

    func testDepthwiseStridesTailsAndMultiplier() throws {
        let shape = [1, 7, 6, 10]
        let input = ramp(7 * 6 * 10)
        for (stride, multiplier) in [(1, 1), (2, 1), (2, 2)] {
            let channels = 10 * multiplier
            let filter = ramp(9 * channels, scale: 0.07), bias = ramp(channels, scale: 0.2)
            let p = ConvolutionParameters(strideH: stride, strideW: stride, padding: .same(
                inputHeight: 7, inputWidth: 6, kernelHeight: 3, kernelWidth: 3, strideH: stride, strideW: stride),
                                          activation: .relu)
            let result = try run(.depthwiseConv2D(p, depthMultiplier: multiplier), input: input, shape: shape,
                                 constants: [([1, 3, 3, channels], filter), ([channels], bias)])
            let outH = (7 + stride - 1) / stride, outW = (6 + stride - 1) / stride
            XCTAssertEqual(result.shape, [1, outH, outW, channels])
            let expected = referenceDepthwise(input, shape, filter, k: 3, multiplier: multiplier, bias, p,
                                              outH: outH, outW: outW).map { max(0, $0) }
            assertClose(result.values, expected)
        }
    }

    // MARK: Element-wise

    func testAddSameShapeBroadcastAndFusedRelu() throws {
        let input = ramp(2 * 3 * 11)
        let other = ramp(2 * 3 * 11, scale: 0.3)
        let same = try run(.add(.none), input: input, shape: [1, 2, 3, 11], constants: [([1, 2, 3, 11], other)])
        assertClose(same.values, zip(input, other).map { $0 + $1 })
        let bias = ramp(11, scale: 0.5)
        let broadcast = try run(.add(.relu), input: input, shape: [1, 2, 3, 11], constants: [([11], bias)])
        assertClose(broadcast.values, input.indices.map { max(0, input[$0] + bias[$0 % 11]) })
        let scalar = try run(.add(.relu6), input: input, shape: [1, 2, 3, 11], constants: [([1], [5])])
        assertClose(scalar.values, input.map { min(6, max(0, $0 + 5)) })
    }

    func testActivations() throws {
        let input: [Float] = [-3, -0.5, 0, 0.5, 2, 7, -8, 6.5, 1, -1, 3]
        assertClose(try run(.activation(.relu), input: input, shape: [11]).values, input.map { max(0, $0) })
        assertClose(try run(.activation(.relu6), input: input, shape: [11]).values, input.map { min(6, max(0, $0)) })
        assertClose(try run(.activation(.reluMinus1To1), input: input, shape: [11]).values,
                    input.map { min(1, max(-1, $0)) })
    }

    func testPReluPerChannelSlope() throws {
        let input = ramp(3 * 3 * 9)
        let slope = ramp(9, scale: 0.25)
        let result = try run(.prelu, input: input, shape: [1, 3, 3, 9], constants: [([1, 1, 9], slope)])
        assertClose(result.values, input.indices.map { input[$0] >= 0 ? input[$0] : input[$0] * slope[$0 % 9] })
    }

    // MARK: Pooling, padding, shapes

    func testMaxPool2x2Stride2AndSamePaddingEdge() throws {
        let input = (0..<15).map { Float(($0 * 7) % 15) }   // 3x5, one channel
        let valid = try run(.maxPool2D(PoolParameters(filterH: 2, filterW: 2, strideH: 2, strideW: 2)),
                            input: input, shape: [1, 3, 5, 1])
        XCTAssertEqual(valid.shape, [1, 1, 2, 1])
        // rows 0-1: [0 7 14 6 13 / 5 12 4 11 3] -> max(0,7,5,12) = 12, max(14,6,4,11) = 14
        assertClose(valid.values, [12, 14])
        let same = SpatialPadding.same(inputHeight: 3, inputWidth: 5, kernelHeight: 2, kernelWidth: 2,
                                       strideH: 2, strideW: 2)
        let padded = try run(.maxPool2D(PoolParameters(filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: same)),
                             input: input.map { $0 - 20 }, shape: [1, 3, 5, 1])
        XCTAssertEqual(padded.shape, [1, 2, 3, 1])
        // Padded cells never win, even though every real value is negative.
        // row 2: [10 2 9 1 8]
        assertClose(padded.values, [12, 14, 13, 10, 9, 8].map { $0 - 20 })
    }

    func testMaxPoolVectorChannels() throws {
        let input = ramp(4 * 4 * 12)
        let result = try run(.maxPool2D(PoolParameters(filterH: 2, filterW: 2, strideH: 2, strideW: 2)),
                             input: input, shape: [1, 4, 4, 12])
        var expected: [Float] = []
        for oy in 0..<2 {
            for ox in 0..<2 {
                for c in 0..<12 {
                    expected.append([0, 1].flatMap { dy in [0, 1].map { dx in
                        input[((oy * 2 + dy) * 4 + ox * 2 + dx) * 12 + c] } }.max() ?? 0)
                }
            }
        }
        assertClose(result.values, expected)
    }

    func testPadChannelsAndSpatial() throws {
        let input: [Float] = [1, 2, 3, 4]   // [1,2,1,2]
        let channels = try run(.pad([.init(before: 0, after: 0), .init(before: 0, after: 0), .init(before: 0, after: 0),
                                     .init(before: 0, after: 2)]), input: input, shape: [1, 2, 1, 2])
        XCTAssertEqual(channels.shape, [1, 2, 1, 4])
        assertClose(channels.values, [1, 2, 0, 0, 3, 4, 0, 0])
        let spatial = try run(.pad([.init(before: 0, after: 0), .init(before: 1, after: 0), .init(before: 0, after: 1),
                                    .init(before: 0, after: 0)]), input: input, shape: [1, 2, 1, 2])
        XCTAssertEqual(spatial.shape, [1, 3, 2, 2])
        assertClose(spatial.values, [0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0])
    }

    func testReshapeInfersMinusOne() throws {
        let input = ramp(24)
        let result = try run(.reshape([1, -1, 4]), input: input, shape: [1, 2, 3, 4])
        XCTAssertEqual(result.shape, [1, 6, 4])
        assertClose(result.values, input)
        XCTAssertThrowsError(try run(.reshape([5, -1]), input: input, shape: [1, 2, 3, 4]))
    }

    func testConcatenationAxes() throws {
        let input: [Float] = [1, 2, 3, 4]   // [1,2,2]
        let last = try run(.concatenation(axis: -1, activation: .none), input: input, shape: [1, 2, 2],
                           constants: [([1, 2, 1], [9, 8])])
        XCTAssertEqual(last.shape, [1, 2, 3])
        assertClose(last.values, [1, 2, 9, 3, 4, 8])
        let middle = try run(.concatenation(axis: 1, activation: .relu), input: input, shape: [1, 2, 2],
                             constants: [([1, 1, 2], [-5, 7])])
        XCTAssertEqual(middle.shape, [1, 3, 2])
        assertClose(middle.values, [1, 2, 3, 4, 0, 7])
    }

    func testResizeBilinearModes() throws {
        let input: [Float] = [0, 10, 20, 30]   // 2x2
        let half = try run(.resizeBilinear(height: 4, width: 4, alignCorners: false, halfPixelCenters: true),
                           input: input, shape: [1, 2, 2, 1])
        // Half-pixel: output x maps to (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25 (clamped at the edges).
        assertClose(half.values, [0, 2.5, 7.5, 10, 5, 7.5, 12.5, 15, 15, 17.5, 22.5, 25, 20, 22.5, 27.5, 30])
        let corners = try run(.resizeBilinear(height: 3, width: 3, alignCorners: true, halfPixelCenters: false),
                              input: input, shape: [1, 2, 2, 1])
        assertClose(corners.values, [0, 5, 10, 10, 15, 20, 20, 25, 30])
        let plain = try run(.resizeBilinear(height: 4, width: 4, alignCorners: false, halfPixelCenters: false),
                            input: input, shape: [1, 2, 2, 1])
        assertClose(plain.values, [0, 5, 10, 10, 10, 15, 20, 20, 20, 25, 30, 30, 20, 25, 30, 30])
        // Vector path: 9 channels, each the same picture scaled by the channel index.
        let wide = (0..<4).flatMap { p in (0..<9).map { Float($0 + 1) * input[p] } }
        let wideResult = try run(.resizeBilinear(height: 4, width: 4, alignCorners: false, halfPixelCenters: true),
                                 input: wide, shape: [1, 2, 2, 9])
        assertClose(wideResult.values, half.values.flatMap { v in (0..<9).map { Float($0 + 1) * v } })
    }

    func testGraphFollowsANewInputSize() throws {
        // in [1,2,2,1] -> resize x2 -> [1,4,4,1] -> reshape [1,16,1], shapes declared as a TFLite file does.
        func graph(resize: (Int, Int), reshape: [Int]) -> GraphDescription {
            GraphDescription(tensors: [TensorDescription(name: "in", shape: [1, 2, 2, 1]),
                                       TensorDescription(name: "up", shape: [1, resize.0, resize.1, 1]),
                                       TensorDescription(name: "out", shape: reshape)],
                             operations: [OperationDescription(kind: .resizeBilinear(height: resize.0, width: resize.1,
                                                                                     alignCorners: false, halfPixelCenters: true),
                                                               inputs: [0], outputs: [1]),
                                          OperationDescription(kind: .reshape(reshape), inputs: [1], outputs: [2])],
                             inputs: [0], outputs: [2], name: "upsample")
        }
        let network = try ResizableNetwork(graph: graph(resize: (4, 4), reshape: [1, 16, 1])).network(height: 2, width: 3)
        XCTAssertEqual(network.outputShapes, [[1, 24, 1]])
        let input: [Float] = [0, 10, 20, 30, 40, 50]
        _ = network.input(0).update(from: input)
        network.run()
        let direct = try run(.resizeBilinear(height: 4, width: 6, alignCorners: false, halfPixelCenters: true),
                             input: input, shape: [1, 2, 3, 1])
        assertClose(Array(network.output(0)), direct.values)
        // A resize to a size that is not a multiple of its input, or a reshape that does not
        // flatten the picture, cannot follow.
        for fixed in [graph(resize: (3, 3), reshape: [1, 9, 1]), graph(resize: (4, 4), reshape: [4, 4, 1])] {
            XCTAssertThrowsError(try ResizableNetwork(graph: fixed).network(height: 2, width: 3)) { error in
                XCTAssertTrue("\(error)".contains("cannot follow"), "\(error)")
            }
        }
    }

    // MARK: Graph and planning

    func testArenaReusesMemoryAlongAChain() throws {
        // in -> relu -> relu -> relu -> out: at most two tensors are alive at once.
        var tensors = [TensorDescription(name: "in", shape: [1, 8, 8, 16])]
        var operations: [OperationDescription] = []
        for step in 0..<3 {
            tensors.append(TensorDescription(name: "t\(step)", shape: []))
            operations.append(OperationDescription(kind: .activation(.relu), inputs: [step], outputs: [step + 1]))
        }
        let network = try NeuralNetwork(graph: GraphDescription(tensors: tensors, operations: operations, inputs: [0],
                                                                outputs: [3], name: "chain"))
        XCTAssertEqual(network.unplannedFloatCount, 4 * 1024)
        XCTAssertEqual(network.arenaFloatCount, 2 * 1024)
        let input = ramp(1024)
        _ = network.input(0).update(from: input)
        network.run()
        assertClose(Array(network.output(0)), input.map { max(0, $0) })
    }

    func testStandaloneReluIsFusedUnlessItsInputIsAlsoRead() throws {
        // in -> add(in, in) -> t1 -> relu -> out1; t1 is also an output, so that relu stays separate.
        // in -> conv -> t3 -> relu -> out2: fused into the convolution.
        let tensors = [TensorDescription(name: "in", shape: [1, 1, 2, 1]), TensorDescription(name: "t1", shape: []),
                       TensorDescription(name: "out1", shape: []), TensorDescription(name: "w", shape: [1, 1, 1, 1],
                                                                                     constant: [-1]),
                       TensorDescription(name: "t3", shape: []), TensorDescription(name: "out2", shape: [])]
        let operations = [OperationDescription(kind: .add(.none), inputs: [0, 0], outputs: [1]),
                          OperationDescription(kind: .activation(.relu), inputs: [1], outputs: [2]),
                          OperationDescription(kind: .conv2D(ConvolutionParameters()), inputs: [0, 3, -1], outputs: [4]),
                          OperationDescription(kind: .activation(.relu6), inputs: [4], outputs: [5])]
        let graph = GraphDescription(tensors: tensors, operations: operations, inputs: [0], outputs: [1, 2, 5],
                                     name: "fusion")
        let fused = GraphOptimizer.fuseActivations(graph)
        XCTAssertEqual(fused.operations.count, 3)
        XCTAssertEqual(fused.operations[2].kind, .conv2D(ConvolutionParameters(activation: .relu6)))
        XCTAssertEqual(fused.operations[2].outputs, [5])
        let network = try NeuralNetwork(graph: graph)
        _ = network.input(0).update(from: [-3, 8])
        network.run()
        assertClose(Array(network.output(0)), [-6, 16])
        assertClose(Array(network.output(1)), [0, 16])
        assertClose(Array(network.output(2)), [3, 0])
    }

    func testPlannerNeverOverlapsLiveTensors() {
        let requests: [ArenaPlanner.Request] = [.init(size: 100, first: 0, last: 2), .init(size: 50, first: 1, last: 3),
                                                .init(size: 70, first: 3, last: 4), .init(size: 10, first: 2, last: 5)]
        let plan = ArenaPlanner.plan(requests)
        for i in requests.indices {
            for j in requests.indices where i < j {
                let a = requests[i], b = requests[j]
                guard a.first <= b.last, b.first <= a.last else { continue }
                let aRange = plan.offsets[i]..<(plan.offsets[i] + a.size)
                let bRange = plan.offsets[j]..<(plan.offsets[j] + b.size)
                XCTAssertFalse(aRange.overlaps(bRange), "tensors \(i) and \(j) overlap")
            }
        }
        XCTAssertLessThan(plan.size, 100 + 50 + 70 + 10 + 64)
    }

    func testInvalidGraphsThrow() {
        // Filter channels do not match the input.
        XCTAssertThrowsError(try run(.conv2D(ConvolutionParameters()), input: ramp(8), shape: [1, 2, 2, 2],
                                     constants: [([1, 1, 1, 3], [1, 1, 1])])) { error in
            XCTAssertTrue("\(error)".contains("test"))
        }
        // Declared output shape disagrees with the inferred one.
        XCTAssertThrowsError(try run(.activation(.relu), input: ramp(4), shape: [4], outputShape: [5]))
        // A window larger than the input.
        XCTAssertThrowsError(try run(.maxPool2D(PoolParameters(filterH: 3, filterW: 3, strideH: 1, strideW: 1)),
                                     input: ramp(4), shape: [1, 2, 2, 1]))
        // Tensor read before it is written.
        let graph = GraphDescription(tensors: [TensorDescription(name: "a", shape: [1]), TensorDescription(name: "b", shape: []),
                                               TensorDescription(name: "c", shape: [])],
                                     operations: [OperationDescription(kind: .add(.none), inputs: [0, 2], outputs: [1])],
                                     inputs: [0], outputs: [1], name: "broken")
        XCTAssertThrowsError(try NeuralNetwork(graph: graph)) { error in
            XCTAssertTrue("\(error)".contains("before it is written"))
        }
    }
}
