import XCTest
@testable import NeuralRuntime

/// CenterFace (ONNX) against onnxruntime's outputs at two small input sizes
/// (fixtures from scripts/reference/centerface_fixtures.py).
final class CenterFaceModelTests: XCTestCase {
    /// The integer input patterns of centerface_fixtures.py, NHWC, values 0...255.
    private func pattern(_ name: String, height: Int, width: Int) -> [Float] {
        (0..<(height * width * 3)).map { i in
            if name == "noise" {
                let hashed = (UInt64(i) &* 2_654_435_761 &+ 12345) & 0xFFFF_FFFF
                return Float((hashed >> 8) % 256)
            }
            let c = i % 3, x = (i / 3) % width, y = i / (3 * width)
            return Float((x * 7 + y * 13 + c * 29) % 256)
        }
    }

    func testReadsTheOperatorsAndFoldsBatchNormalization() throws {
        let graph = try ONNXReader.graph(contentsOf: try TestSupport.modelPath("centerface.onnx"))
        var counts: [String: Int] = [:]
        for operation in graph.operations {
            switch operation.kind {
            case .conv2D: counts["conv", default: 0] += 1
            case .depthwiseConv2D: counts["depthwise", default: 0] += 1
            case .transposeConv2D: counts["transpose", default: 0] += 1
            case .activation(.relu): counts["relu", default: 0] += 1
            case .add: counts["add", default: 0] += 1
            case .sigmoid: counts["sigmoid", default: 0] += 1
            default: counts["other", default: 0] += 1
            }
        }
        // 60 Conv = 43 full + 17 depthwise; the 3 BatchNormalizations vanish into the ConvTransposes.
        XCTAssertEqual(counts, ["conv": 43, "depthwise": 17, "transpose": 3, "relu": 42, "add": 13, "sigmoid": 1])
        let parameters = graph.tensors.compactMap(\.constant).reduce(0) { $0 + $1.count }
        XCTAssertGreaterThan(parameters, 1_700_000)
        XCTAssertLessThan(parameters, 1_900_000)
        XCTAssertEqual(graph.tensors[graph.inputs[0]].shape, [1, 32, 32, 3], "batch 1, NHWC")
        XCTAssertEqual(graph.outputs.map { graph.tensors[$0].name }, ["537", "538", "539", "540"])
    }

    func testMatchesOnnxRuntimeAtTwoSizes() throws {
        let graph = try ONNXReader.graph(contentsOf: try TestSupport.modelPath("centerface.onnx"))
        for path in KernelPath.supported {
            let model = try ResizableNetwork(graph: graph, kernelPath: path)
            for (height, width) in [(64, 96), (128, 160)] {
                let network = try model.network(height: height, width: width)
                XCTAssertEqual(network.outputShapes, [1, 2, 2, 10].map { [1, height / 4, width / 4, $0] })
                for name in ["noise", "ramp"] {
                    _ = network.input(0).update(from: pattern(name, height: height, width: width))
                    network.run()
                    for index in 0..<4 {
                        let expected = try TestSupport.fixture("centerface_\(name)_\(height)x\(width)_out\(index)")
                        TestSupport.assertClose(network.output(index), expected,
                                                "\(name) \(height)x\(width) out\(index), \(path) kernels")
                    }
                }
            }
        }
    }

    /// Workers splitting one convolution must share no scratch memory: at a size where the split
    /// matters, repeated multi-threaded runs give bit for bit the single-threaded outputs. (The
    /// input is filled before every run: the arena reuses the input's memory once it is consumed.)
    func testThreadedRunsMatchTheSingleThreadedRunExactly() throws {
        let graph = try ONNXReader.graph(contentsOf: try TestSupport.modelPath("centerface.onnx"))
        let network = try ResizableNetwork(graph: graph).network(height: 352, width: 640)
        let input = pattern("noise", height: 352, width: 640)
        _ = network.input(0).update(from: input)
        network.run()
        let expected = (0..<4).map { Array(network.output($0)) }
        for run in 0..<4 {
            _ = network.input(0).update(from: input)
            network.run(threads: 4)
            for index in 0..<4 {
                XCTAssertTrue(Array(network.output(index)) == expected[index], "run \(run), output \(index)")
            }
        }
    }

    /// A network planned for a batch gives each image bit for bit what a one-image network gives
    /// it, on every kernel path (tiles of pixels cross from one image into the next).
    func testBatchOfImagesMatchesEachImageAloneExactly() throws {
        let graph = try ONNXReader.graph(contentsOf: try TestSupport.modelPath("centerface.onnx"))
        for path in KernelPath.supported {
            let model = try ResizableNetwork(graph: graph, kernelPath: path)
            let batch = try model.network(batch: 3, height: 64, width: 96)
            XCTAssertEqual(batch.batch, 3)
            XCTAssertEqual(batch.outputShapes, [1, 2, 2, 10].map { [3, 16, 24, $0] })
            let images = ["noise", "ramp", "noise"].enumerated().map { index, name in
                pattern(name, height: 64, width: 96).map { $0 + Float(index) }
            }
            for (slot, image) in images.enumerated() { _ = batch.input(0, image: slot).update(from: image) }
            batch.run(threads: 2)
            // The model's networks share one arena: the batch's outputs are read before another runs.
            let batched = images.indices.map { slot in (0..<4).map { Array(batch.output($0, image: slot)) } }
            let single = try model.network(height: 64, width: 96)
            for (slot, image) in images.enumerated() {
                _ = single.input(0).update(from: image)
                single.run()
                for index in 0..<4 {
                    XCTAssertTrue(batched[slot][index] == Array(single.output(index)),
                                  "\(path) image \(slot) output \(index)")
                }
            }
        }
    }

    func testCachesOneNetworkPerSize() throws {
        let graph = try ONNXReader.graph(contentsOf: try TestSupport.modelPath("centerface.onnx"))
        let model = try ResizableNetwork(graph: graph, capacity: 2)
        let first = try model.network(height: 32, width: 64)
        XCTAssertTrue(first === (try model.network(height: 32, width: 64)), "same size reuses the plan")
        XCTAssertEqual(first.inputShapes, [[1, 32, 64, 3]])
        _ = try model.network(height: 64, width: 32)
        _ = try model.network(height: 96, width: 32)
        XCTAssertFalse(first === (try model.network(height: 32, width: 64)), "evicted beyond the capacity")
    }

    /// Networks planned for several sizes share their packed convolution weights: each gives
    /// exactly what a network planned alone for its size gives.
    func testSizesSharingPackedWeightsMatchNetworksPlannedAlone() throws {
        let graph = try ONNXReader.graph(contentsOf: try TestSupport.modelPath("centerface.onnx"))
        let model = try ResizableNetwork(graph: graph)
        for (height, width) in [(96, 96), (64, 128), (96, 96), (32, 64)] {
            let shared = try model.network(height: height, width: width)
            var sized = graph
            sized.tensors[sized.inputs[0]].shape = [1, height, width, 3]
            let alone = try NeuralNetwork(graph: sized)
            let input = (0..<(height * width * 3)).map { Float(($0 * 7919) % 256) / 255 }
            for network in [shared, alone] {
                _ = network.input(0).update(from: input)
                network.run()
            }
            for index in 0..<4 {
                XCTAssertTrue(Array(shared.output(index)) == Array(alone.output(index)), "\(width)x\(height) output \(index)")
            }
        }
    }
}
