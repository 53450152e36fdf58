import Foundation
import XCTest
@testable import NeuralRuntime

/// The ONNX front-end on small models written by `ONNXTestModel`, and on damaged bytes.
final class ONNXReaderTests: XCTestCase {
    private let xValues: [Float] = (0..<18).map { Float(($0 * 5) % 7) - 3 }            // X [1,2,3,3] NCHW
    private let tWeights: [Float] = (0..<24).map { Float(($0 * 3) % 11) / 10 - 0.5 }   // [Cin 2][Cout 3][2][2]
    private let tBias: [Float] = [0.1, -0.2, 0.3]
    private let bn: [[Float]] = [[1.5, 0.5, 2], [0.1, 0.2, -0.3], [0.4, -0.1, 0.2], [0.9, 1.1, 0.5]]
    private let xbn: [[Float]] = [[2, -1], [0.5, 0.25], [1, -2], [4, 0.25]]
    private let dWeights: [Float] = (0..<18).map { Float(($0 * 7) % 5) / 4 - 0.5 }      // [2][1][3][3]

    /// ConvTranspose + BatchNormalization (folded) + Relu, and BatchNormalization on the input
    /// (not foldable) + depthwise Conv + Sigmoid.
    private func synthetic(opType: String = "Sigmoid") -> [UInt8] {
        typealias M = ONNXTestModel
        return M.model(
            nodes: [
                M.node("ConvTranspose", inputs: ["X", "Wt", "Bt"], outputs: ["T"],
                       ints: [("kernel_shape", [2, 2]), ("strides", [2, 2]), ("pads", [0, 0, 0, 0])]),
                M.node("BatchNormalization", inputs: ["T", "g", "b", "m", "v"], outputs: ["B"], floats: [("epsilon", 1e-3)]),
                M.node("Relu", inputs: ["B"], outputs: ["R"]),
                M.node("BatchNormalization", inputs: ["X", "xg", "xb", "xm", "xv"], outputs: ["BX"]),
                M.node("Conv", inputs: ["BX", "Wd"], outputs: ["D"],
                       ints: [("group", [2]), ("kernel_shape", [3, 3]), ("pads", [1, 1, 1, 1]), ("strides", [1, 1])]),
                M.node(opType, inputs: ["D"], outputs: ["S"]),
            ],
            initializers: [
                M.initializer("Wt", dims: [2, 3, 2, 2], values: tWeights), M.initializer("Bt", dims: [3], values: tBias),
                M.initializer("g", dims: [3], values: bn[0]), M.initializer("b", dims: [3], values: bn[1]),
                M.initializer("m", dims: [3], values: bn[2]), M.initializer("v", dims: [3], values: bn[3]),
                M.initializer("xg", dims: [2], values: xbn[0]), M.initializer("xb", dims: [2], values: xbn[1]),
                M.initializer("xm", dims: [2], values: xbn[2]), M.initializer("xv", dims: [2], values: xbn[3]),
                M.initializer("Wd", dims: [2, 1, 3, 3], values: dWeights),
            ],
            inputs: [M.value("X", dims: [1, 2, 3, 3])],
            outputs: [M.value("R", dims: [1, 3, 6, 6]), M.value("S", dims: [1, 2, 3, 3])])
    }

    func testSyntheticModelMatchesDirectComputation() throws {
        let graph = try ONNXReader.graph(bytes: synthetic(), name: "synthetic.onnx")
        XCTAssertEqual(graph.operations.count, 5, "one BatchNormalization folded, the other kept")
        let network = try NeuralNetwork(graph: graph)
        XCTAssertEqual(network.inputShapes, [[1, 3, 3, 2]])
        XCTAssertEqual(network.outputShapes, [[1, 6, 6, 3], [1, 3, 3, 2]])
        fillInput(network)
        network.run()

        // Output 0: ConvTranspose 2x2 stride 2, then BatchNormalization (epsilon 1e-3), then Relu.
        var expectedR = [Float](repeating: 0, count: 108)
        for co in 0..<3 {
            for oy in 0..<6 {
                for ox in 0..<6 {
                    var sum = tBias[co]
                    for ci in 0..<2 {
                        sum += xValues[(ci * 3 + oy / 2) * 3 + ox / 2] * tWeights[((ci * 3 + co) * 2 + oy % 2) * 2 + ox % 2]
                    }
                    let normalised = (sum - bn[2][co]) / (bn[3][co] + 1e-3).squareRoot() * bn[0][co] + bn[1][co]
                    expectedR[(oy * 6 + ox) * 3 + co] = max(0, normalised)
                }
            }
        }
        TestSupport.assertClose(network.output(0), expectedR, tolerance: 1e-5, "transpose + bn + relu")

        // Output 1: BatchNormalization (default epsilon 1e-5), depthwise 3x3 pad 1, Sigmoid.
        var expectedS = [Float](repeating: 0, count: 18)
        for c in 0..<2 {
            for y in 0..<3 {
                for x in 0..<3 {
                    var sum: Float = 0
                    for ky in 0..<3 {
                        for kx in 0..<3 {
                            let iy = y + ky - 1, ix = x + kx - 1
                            guard iy >= 0, iy < 3, ix >= 0, ix < 3 else { continue }
                            let v = xValues[(c * 3 + iy) * 3 + ix]
                            let normalised = (v - xbn[2][c]) / (xbn[3][c] + 1e-5).squareRoot() * xbn[0][c] + xbn[1][c]
                            sum += normalised * dWeights[(c * 3 + ky) * 3 + kx]
                        }
                    }
                    expectedS[(y * 3 + x) * 2 + c] = 1 / (1 + exp(-sum))
                }
            }
        }
        TestSupport.assertClose(network.output(1), expectedS, tolerance: 1e-5, "bn + depthwise + sigmoid")
    }

    func testBatchNormalizationFoldsIntoConvAndDepthwiseConv() throws {
        typealias M = ONNXTestModel
        // Conv 3x3 (2 -> 3 channels, no bias, stride 2) + BN, and depthwise 1x1 with multiplier 2 + BN.
        let conv: [Float] = (0..<54).map { Float(($0 * 5) % 9) / 8 - 0.5 }
        let depthwise: [Float] = [0.5, -1, 2, 0.25]
        let parameters: [[Float]] = [[1.5, 0.5, 2, 1], [0.1, 0.2, -0.3, 0], [0.4, -0.1, 0.2, 1], [0.9, 1.1, 0.5, 4]]
        func bn(_ name: String, _ count: Int) -> [[UInt8]] {
            ["g", "b", "m", "v"].enumerated().map { M.initializer(name + $1, dims: [count], values: Array(parameters[$0].prefix(count))) }
        }
        let bytes = M.model(
            nodes: [M.node("Conv", inputs: ["X", "W"], outputs: ["C"],
                           ints: [("kernel_shape", [3, 3]), ("strides", [2, 2]), ("pads", [1, 1, 1, 1])]),
                    M.node("BatchNormalization", inputs: ["C", "cg", "cb", "cm", "cv"], outputs: ["Y"]),
                    M.node("Conv", inputs: ["X", "D"], outputs: ["E"], ints: [("group", [2]), ("kernel_shape", [1, 1])]),
                    M.node("BatchNormalization", inputs: ["E", "dg", "db", "dm", "dv"], outputs: ["Z"])],
            initializers: [M.initializer("W", dims: [3, 2, 3, 3], values: conv), M.initializer("D", dims: [4, 1, 1, 1], values: depthwise)]
                + bn("c", 3) + bn("d", 4),
            inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: []), M.value("Z", dims: [])])
        let graph = try ONNXReader.graph(bytes: bytes, name: "fold.onnx")
        XCTAssertEqual(graph.operations.count, 2, "both BatchNormalizations folded")
        let network = try NeuralNetwork(graph: graph)
        XCTAssertEqual(network.outputShapes, [[1, 2, 2, 3], [1, 3, 3, 4]])
        fillInput(network)
        network.run()
        func normalise(_ value: Float, _ c: Int) -> Float {
            (value - parameters[2][c]) / (parameters[3][c] + 1e-5).squareRoot() * parameters[0][c] + parameters[1][c]
        }
        var expectedY = [Float](repeating: 0, count: 12)
        for co in 0..<3 {
            for oy in 0..<2 {
                for ox in 0..<2 {
                    var sum: Float = 0
                    for ci in 0..<2 {
                        for ky in 0..<3 {
                            for kx in 0..<3 {
                                let iy = oy * 2 + ky - 1, ix = ox * 2 + kx - 1
                                guard iy >= 0, iy < 3, ix >= 0, ix < 3 else { continue }
                                sum += xValues[(ci * 3 + iy) * 3 + ix] * conv[((co * 2 + ci) * 3 + ky) * 3 + kx]
                            }
                        }
                    }
                    expectedY[(oy * 2 + ox) * 3 + co] = normalise(sum, co)
                }
            }
        }
        TestSupport.assertClose(network.output(0), expectedY, tolerance: 1e-5, "conv + bn")
        var expectedZ = [Float](repeating: 0, count: 36)
        for pixel in 0..<9 {
            for co in 0..<4 {
                // Output channel co reads input channel co / 2 (multiplier 2).
                expectedZ[pixel * 4 + co] = normalise(xValues[(co / 2) * 9 + pixel] * depthwise[co], co)
            }
        }
        TestSupport.assertClose(network.output(1), expectedZ, tolerance: 1e-5, "depthwise x2 + bn")
    }

    /// Copies X (NCHW [1,2,3,3]) into the network's NHWC input.
    private func fillInput(_ network: NeuralNetwork) {
        let input = network.input(0)
        for c in 0..<2 { for y in 0..<3 { for x in 0..<3 { input[(y * 3 + x) * 2 + c] = xValues[(c * 3 + y) * 3 + x] } } }
    }

    private func assertOneLine(_ error: Error, contains fragments: [String], file: StaticString = #filePath,
                               line: UInt = #line) {
        let text = "\(error)"
        XCTAssertTrue(error is NeuralRuntimeError, "a NeuralRuntimeError: \(text)", file: file, line: line)
        XCTAssertFalse(text.contains("\n"), "one line: \(text)", file: file, line: line)
        for fragment in fragments { XCTAssertTrue(text.contains(fragment), "'\(fragment)' in: \(text)", file: file, line: line) }
    }

    func testRefusesAnUnsupportedOperatorByName() {
        XCTAssertThrowsError(try ONNXReader.graph(bytes: synthetic(opType: "LSTM"), name: "lstm.onnx")) { error in
            assertOneLine(error, contains: ["ONNX", "LSTM", "lstm.onnx"])
        }
    }

    func testRefusesThePatchedCenterFaceModelByOperatorName() throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: try TestSupport.modelPath("centerface.onnx")))
        let needle = Data("Sigmoid".utf8)
        let found = try XCTUnwrap(data.range(of: needle))
        XCTAssertNil(data.range(of: needle, in: found.upperBound..<data.endIndex), "one Sigmoid node")
        data.replaceSubrange(found, with: Data("Softmax".utf8))
        let bytes = [UInt8](data)
        XCTAssertThrowsError(try ONNXReader.graph(bytes: bytes, name: "patched.onnx")) { error in
            assertOneLine(error, contains: ["unsupported ONNX operator Softmax", "patched.onnx"])
        }
    }

    /// A file of unknown hash (no sha256 to check) with a few bytes flipped inside the weights: the
    /// network is refused by name instead of reporting thousands of faces.
    func testWeightsHoldingNaNAreRefusedByName() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try TestSupport.modelPath("centerface.onnx"))))
        // Eight 0xFF bytes: whatever the alignment, one float of them is 0xFFFFFFFF, a NaN.
        for offset in bytes.count / 2 ..< bytes.count / 2 + 8 { bytes[offset] = 0xFF }
        let graph = try ONNXReader.graph(bytes: bytes, name: "flipped.onnx")
        XCTAssertThrowsError(try NeuralNetwork(graph: graph)) { error in
            assertOneLine(error, contains: ["flipped.onnx", "NaN or infinity"])
        }
    }

    func testTruncatedCenterFaceFilesThrow() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try TestSupport.modelPath("centerface.onnx"))))
        for fraction in [0.0001, 0.3, 0.9999] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            XCTAssertThrowsError(try ONNXReader.graph(bytes: cut, name: "cut.onnx")) { error in
                assertOneLine(error, contains: ["cut.onnx"])
            }
        }
        XCTAssertThrowsError(try ONNXReader.graph(contentsOf: "/nonexistent/centerface.onnx")) { error in
            assertOneLine(error, contains: ["/nonexistent/centerface.onnx"])
        }
    }

    func testRandomBytesThrow() {
        var generator = SplitMix(seed: 7)
        for length in [0, 1, 7, 100, 4096] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            XCTAssertThrowsError(try ONNXReader.graph(bytes: bytes, name: "random.onnx"), "length \(length)")
        }
    }

    /// Truncated and byte-mutated copies of the synthetic model: each either loads and runs or
    /// throws; none crashes.
    func testFuzzedModelsNeverCrash() {
        let original = synthetic()
        let (loaded, refused) = ONNXTestModel.fuzz(original, seed: 2026)
        XCTAssertGreaterThan(refused, 100, "truncations are refused")
        XCTAssertGreaterThan(loaded, 0, "some mutations only touch values")
    }
}

