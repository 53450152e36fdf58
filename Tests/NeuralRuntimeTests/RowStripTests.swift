import XCTest
@testable import NeuralRuntime

/// Mobile-network blocks run in row strips (`RowStripChain`) give bit for bit what running their
/// steps one after another gives.
final class RowStripTests: XCTestCase {
    /// Two blocks: expansion 16 -> 96, depthwise 3x3 stride 2 without padding (so the expansion's
    /// last row is read by no output row), projection to 48; then expansion 48 -> 144, depthwise
    /// stride 1 with padding, projection to 48 plus the first block's output (a residual ADD the
    /// optimizer fuses into the projection). The first expansion is also a graph output unless
    /// `expansionIsOutput` is false.
    private func twoBlocks(expansionIsOutput: Bool = true) -> GraphDescription {
        var tensors = [TensorDescription(name: "in", shape: [1, 194, 130, 16])]
        var operations: [OperationDescription] = []
        var seed = 0
        func constant(_ shape: [Int]) -> Int {
            seed += 1
            tensors.append(TensorDescription(name: "c\(seed)", shape: shape,
                                             constant: TestSupport.values(shape.reduce(1, *), seed: seed, scale: 0.5)))
            return tensors.count - 1
        }
        func add(_ kind: OperationKind, _ inputs: [Int]) -> Int {
            tensors.append(TensorDescription(name: "t\(tensors.count)", shape: []))
            operations.append(OperationDescription(kind: kind, inputs: inputs, outputs: [tensors.count - 1]))
            return tensors.count - 1
        }
        let relu6 = ConvolutionParameters(activation: .relu6)
        let expansion = add(.conv2D(relu6), [0, constant([96, 1, 1, 16]), constant([96])])
        let stride2 = ConvolutionParameters(strideH: 2, strideW: 2, activation: .relu6)
        let depthwise = add(.depthwiseConv2D(stride2, depthMultiplier: 1), [expansion, constant([1, 3, 3, 96]), constant([96])])
        let block = add(.conv2D(ConvolutionParameters()), [depthwise, constant([48, 1, 1, 96]), constant([48])])
        let second = add(.conv2D(relu6), [block, constant([144, 1, 1, 48]), constant([144])])
        let same = ConvolutionParameters(padding: SpatialPadding(top: 1, left: 1, bottom: 1, right: 1), activation: .relu6)
        let depthwise2 = add(.depthwiseConv2D(same, depthMultiplier: 1), [second, constant([1, 3, 3, 144]), constant([144])])
        let projection = add(.conv2D(ConvolutionParameters()), [depthwise2, constant([48, 1, 1, 144]), constant([48])])
        let sum = add(.add(.none), [projection, block])
        return GraphDescription(tensors: tensors, operations: operations, inputs: [0],
                                outputs: expansionIsOutput ? [sum, expansion] : [sum], name: "blocks")
    }

    func testBlocksInStripsMatchStepsRunWhole() throws {
        let graph = twoBlocks()
        let input = TestSupport.values(194 * 130 * 16, seed: 99, scale: 1)
        for path in KernelPath.supported {
            let strips = try NeuralNetwork(graph: graph, kernelPath: path)
            let whole = try NeuralNetwork(graph: graph, kernelPath: path, rowStrips: false)
            XCTAssertEqual(strips.chains.map(\.steps), [0..<3, 3..<6], "both blocks, the ADD fused (\(path))")
            XCTAssertEqual(whole.chains, [])
            // The first expansion is a graph output and stays whole; the other inner tensors are rings.
            XCTAssertEqual(strips.ringedTensorCount, 3, "\(path)")
            for network in [strips, whole] {
                _ = network.input(0).update(from: input)
                network.run()
            }
            XCTAssertEqual(strips.outputShapes, [[1, 96, 64, 48], [1, 194, 130, 96]])
            for index in 0..<2 {
                XCTAssertTrue(Array(strips.output(index)) == Array(whole.output(index)), "output \(index) on \(path)")
            }
        }
    }

    /// The tensors `run()` keeps in rings are planned whole in a second block that only whole-step
    /// runs write (its pages stay untouched, uncounted, until one does); the arena `run()` writes
    /// is the smaller for it, and all three ways give the same outputs.
    func testRingedTensorsLiveInABlockOnlyWholeStepRunsWrite() throws {
        let graph = twoBlocks()
        let strips = try NeuralNetwork(graph: graph), whole = try NeuralNetwork(graph: graph, rowStrips: false)
        let ringed = try XCTUnwrap(strips.ringedBlock)
        XCTAssertNil(whole.ringedBlock)
        // The second expansion (46 x 64 x 144) and both depthwise outputs are out of the arena.
        XCTAssertGreaterThanOrEqual(strips.ringedFloatCount, 96 * 64 * 48 + 96 * 64 * 144)
        XCTAssertLessThan(strips.arenaFloatCount, whole.arenaFloatCount)
        ringed.start.update(repeating: .nan, count: ringed.floatCount)
        let input = TestSupport.values(194 * 130 * 16, seed: 7, scale: 1)
        let counted = NetworkMemory.arenas.live
        for network in [strips, whole] {
            _ = network.input(0).update(from: input)
            network.run()
        }
        XCTAssertTrue((0..<ringed.floatCount).allSatisfy { ringed.start[$0].isNaN }, "run() never writes the ringed block")
        XCTAssertEqual(NetworkMemory.arenas.live, counted, "nor counts it")
        let fromStrips = (0..<2).map { Array(strips.output($0)) }
        _ = strips.input(0).update(from: input)  // the arena reuses the input's memory
        strips.run(threads: 2)
        XCTAssertEqual(NetworkMemory.arenas.live, counted + ringed.floatCount * MemoryLayout<Float>.size)
        XCTAssertFalse((0..<ringed.floatCount).allSatisfy { ringed.start[$0].isNaN })
        for index in 0..<2 {
            XCTAssertTrue(fromStrips[index] == Array(whole.output(index)), "output \(index), strips")
            XCTAssertTrue(Array(strips.output(index)) == Array(whole.output(index)), "output \(index), threads")
        }
    }

    /// With more threads, a block whose inner tensors are all rings is split into bands of output
    /// rows, each computed in strips with the rings of the thread running it: the whole tensors
    /// are never written (the ringed block stays untouched and uncounted), and every thread count
    /// gives the bits one thread gives, on every kernel path.
    func testThreadsRunBlocksInBandsWithTheirOwnRings() throws {
        let graph = twoBlocks(expansionIsOutput: false)
        let input = TestSupport.values(194 * 130 * 16, seed: 5, scale: 1)
        for path in KernelPath.supported {
            let strips = try NeuralNetwork(graph: graph, kernelPath: path)
            let whole = try NeuralNetwork(graph: graph, kernelPath: path, rowStrips: false)
            XCTAssertEqual(strips.chains.map(\.steps), [0..<3, 3..<6])
            XCTAssertEqual(strips.ringedTensorCount, 4, "both blocks' expansions and depthwise outputs (\(path))")
            _ = whole.input(0).update(from: input)
            whole.run()
            let expected = Array(whole.output(0))
            let ringed = try XCTUnwrap(strips.ringedBlock)
            ringed.start.update(repeating: .nan, count: ringed.floatCount)
            let counted = NetworkMemory.arenas.live
            for threads in [1, 2, 3, 4, 2] {
                // (The arena may reuse the input's memory for the output: poison first.)
                UnsafeMutablePointer(mutating: strips.output(0).baseAddress!).update(repeating: .nan, count: expected.count)
                _ = strips.input(0).update(from: input)
                strips.run(threads: threads)
                XCTAssertTrue(Array(strips.output(0)) == expected, "\(threads) threads on \(path)")
            }
            XCTAssertTrue((0..<ringed.floatCount).allSatisfy { ringed.start[$0].isNaN }, "no whole inner tensor written (\(path))")
            XCTAssertEqual(NetworkMemory.arenas.live, counted, "nor counted (\(path))")
        }
    }

    /// Bands of output rows starting anywhere: the last step's strips cover each band exactly,
    /// each step computes the rows of its band's first row on (so two bands share at most the
    /// rows a kernel spans), and a ring of `ringRows(_:bands:)` rows never loses a row before the
    /// next step reads it.
    func testBandsCoverTheirRowsAndFitTheirRings() {
        let expansion = pointwise(41), halving = depthwise3x3(41, stride: 2, padTop: 0)
        for rows in [[expansion, depthwise3x3(41, stride: 1, padTop: 1), pointwise(41)], [expansion, halving, pointwise(20)],
                     [expansion, depthwise3x3(41, stride: 2, padTop: 1), pointwise(21)], [expansion, halving]] {
            let outputRows = rows[rows.count - 1].outputRows
            for parts in [1, 2, 3, 4, 7] {
                let bands = (0..<parts).map { WorkShare.range(part: $0, of: parts, total: outputRows) }
                let ring = RowStripPlanner.ringRows(rows, bands: bands)
                var covered: [Int] = []
                for band in bands {
                    // Which rows of each step this band holds, by row number (a ring keeps the last `ring[k]`).
                    var held = [[Int]](repeating: [], count: rows.count)
                    RowStripPlanner.forEachStrip(rows, band: band, completing: false) { k, strip in
                        if k > 0 {
                            let reads = rows[k].firstInputRow(forOutputRow: strip.lowerBound)..<rows[k].inputRowsRead(forOutputRows: strip.upperBound)
                            for row in reads {
                                XCTAssertTrue(held[k - 1].suffix(ring[k - 1]).contains(row),
                                              "step \(k) reads row \(row) of a ring of \(ring[k - 1]), band \(band) of \(rows)")
                            }
                        }
                        held[k] += Array(strip)
                        if k == rows.count - 1 { covered += Array(strip) }
                    }
                }
                XCTAssertEqual(covered, Array(0..<outputRows), "\(parts) bands of \(rows)")
                XCTAssertEqual(ring.dropLast(), RowStripPlanner.ringRows(rows).dropLast(), "bands need no larger rings")
            }
        }
    }

    /// Depthwise weights are packed once per step for every size planned with the same weights.
    func testDepthwiseWeightsArePackedOncePerStepForEverySize() throws {
        var graph = twoBlocks()
        let shared = PackedWeights()
        let first = try NeuralNetwork(graph: graph, sharing: shared)
        graph.tensors[0].shape = [1, 98, 66, 16]
        let second = try NeuralNetwork(graph: graph, sharing: shared)
        func depthwisePacks(_ network: NeuralNetwork) -> [UnsafePointer<Float>] {
            network.stepsForProfiling.compactMap { step in
                if case let .depthwise(kernel) = step { return kernel.packedC?.weights }
                return nil
            }
        }
        XCTAssertEqual(depthwisePacks(first).count, 2)
        XCTAssertEqual(depthwisePacks(first), depthwisePacks(second))
    }

    func testSmallTensorsAndLargeWeightsRunWhole() throws {
        var graph = twoBlocks()
        graph.tensors[0].shape = [1, 34, 30, 16]
        XCTAssertEqual(try NeuralNetwork(graph: graph).chains, [], "outputs that fit the cache")
    }

    func testInputRowsReadByOutputRows() {
        let stride2 = RowDependency(inputRows: 9, outputRows: 4, stride: 2, padTop: 0, reach: 2)
        XCTAssertEqual((0...4).map { stride2.inputRowsRead(forOutputRows: $0) }, [0, 3, 5, 7, 9])
        let padded = RowDependency(inputRows: 5, outputRows: 5, stride: 1, padTop: 1, reach: 2)
        XCTAssertEqual((0...5).map { padded.inputRowsRead(forOutputRows: $0) }, [0, 2, 3, 4, 5, 5])
    }

    /// Rings hold the rows between the next step's first unread input row and the last row
    /// written: 3 for a 3x3 depthwise reading an expansion (stride 2 too: its next output row
    /// needs two new rows and the one it shares with the last), 1 for a 1x1 projection reading
    /// the depthwise output; none for the block's output.
    func testRingRowsFollowTheStripOrder() {
        let expansion = RowDependency(inputRows: 40, outputRows: 40, stride: 1, padTop: 0, reach: 0)
        let same = RowDependency(inputRows: 40, outputRows: 40, stride: 1, padTop: 1, reach: 2)
        let halving = RowDependency(inputRows: 40, outputRows: 20, stride: 2, padTop: 0, reach: 2)
        let projection = RowDependency(inputRows: 40, outputRows: 40, stride: 1, padTop: 0, reach: 0)
        let projectionHalf = RowDependency(inputRows: 20, outputRows: 20, stride: 1, padTop: 0, reach: 0)
        XCTAssertEqual(RowStripPlanner.ringRows([expansion, same, projection]), [3, 1, 0])
        XCTAssertEqual(RowStripPlanner.ringRows([expansion, halving, projectionHalf]), [3, 1, 0])
        XCTAssertEqual(RowStripPlanner.ringRows([expansion, halving]), [3, 0])
    }

    /// CenterFace at 192 x 320 has three blocks large enough for strips; its four outputs match.
    func testCenterFaceInStripsMatchesStepsRunWhole() throws {
        var graph = try ONNXReader.graph(contentsOf: try TestSupport.modelPath("centerface.onnx"))
        graph.tensors[graph.inputs[0]].shape = [1, 192, 320, 3]
        let strips = try NeuralNetwork(graph: graph), whole = try NeuralNetwork(graph: graph, rowStrips: false)
        XCTAssertFalse(strips.chains.isEmpty)
        // Every block's expansion, and the depthwise output of blocks whose projection is in the chain.
        XCTAssertGreaterThanOrEqual(strips.ringedTensorCount, strips.chains.count)
        let input = TestSupport.pattern("noise", height: 192, width: 320, channels: 3)
        for network in [strips, whole] {
            _ = network.input(0).update(from: input)
            network.run()
        }
        for index in 0..<4 {
            XCTAssertTrue(Array(strips.output(index)) == Array(whole.output(index)), "output \(index)")
        }
    }
}

/// A 1x1 stride-1 step over `rows` rows.
private func pointwise(_ rows: Int) -> RowDependency {
    RowDependency(inputRows: rows, outputRows: rows, stride: 1, padTop: 0, reach: 0)
}

/// A 3x3 step reading `rows` rows.
private func depthwise3x3(_ rows: Int, stride: Int, padTop: Int) -> RowDependency {
    RowDependency(inputRows: rows, outputRows: (rows + 2 * padTop - 3) / stride + 1, stride: stride, padTop: padTop, reach: 2)
}
