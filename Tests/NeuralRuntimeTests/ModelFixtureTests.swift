import XCTest
@testable import NeuralRuntime

/// The four MediaPipe models against ai-edge-litert's outputs on the same inputs, on every kernel
/// path this machine supports.
final class ModelFixtureTests: XCTestCase {
    private func check(_ model: String, outputs: [[Int]]) throws {
        for path in KernelPath.supported { try check(model, outputs: outputs, path: path) }
    }

    private func check(_ model: String, outputs: [[Int]], path: KernelPath) throws {
        let network = try NeuralNetwork(tfliteFile: try TestSupport.modelPath(model + ".tflite"), kernelPath: path)
        XCTAssertEqual(network.outputShapes, outputs)
        let shape = network.inputShapes[0]
        XCTAssertLessThan(network.arenaFloatCount, network.unplannedFloatCount, "the planner reuses memory")
        for pattern in ["noise", "ramp"] {
            let values = TestSupport.pattern(pattern, height: shape[1], width: shape[2], channels: shape[3])
            _ = network.input(0).update(from: values)
            network.run()
            for index in outputs.indices {
                let expected = try TestSupport.fixture("\(model)_\(pattern)_out\(index)")
                TestSupport.assertClose(network.output(index), expected, "\(model) \(pattern) output \(index), \(path) kernels")
            }
        }
    }

    func testShortRangeMatchesReference() throws {
        try check("face_detection_short_range", outputs: [[1, 896, 16], [1, 896, 1]])
    }

    func testFullRangeMatchesReference() throws {
        try check("face_detection_full_range", outputs: [[1, 2304, 16], [1, 2304, 1]])
    }

    func testFaceLandmarkMatchesReference() throws {
        try check("face_landmark", outputs: [[1, 1, 1, 1404], [1, 1, 1, 1]])
    }

    /// The iris model's operations (conv, depthwise conv, PReLU, max pool, pad, add, reshape) all load and agree.
    func testIrisLandmarkMatchesReference() throws {
        try check("iris_landmark", outputs: [[1, 213], [1, 15]])
    }
}
