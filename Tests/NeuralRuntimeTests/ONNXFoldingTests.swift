import Foundation
import XCTest
@testable import NeuralRuntime

/// What the ONNX reader computes at load or maps onto existing kernels for SFace-like models:
/// blocked DequantizeLinear and constant Reshape of weights, Flatten + Gemm with the weights put
/// in NHWC order, PRelu, Sub/Mul by constants, Dropout and BatchNormalization after Gemm. Each
/// small model is checked against a direct NCHW computation written out here.
final class ONNXFoldingTests: XCTestCase {
    typealias M = ONNXTestModel
    /// X [1,2,3,3] NCHW.
    private let xValues: [Float] = (0..<18).map { Float(($0 * 5) % 7) - 3 }

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

    // MARK: DequantizeLinear

    /// A Conv whose filter is int8 in blocks of 8 along axis 1 of a [4][18] matrix (the last block
    /// of each row holds 2 values), reshaped to [4,2,3,3] with a 0 and a -1 in the shape: the filter
    /// is computed at load, and the network matches the convolution with (q - zero) * scale.
    func testBlockedDequantizeLinearFoldsIntoConstantWeights() throws {
        let q: [Int] = (0..<72).map { ($0 * 37) % 255 - 127 }
        let scales: [Float] = (0..<12).map { 0.01 + Float($0) * 0.003 }     // [4][3]
        let zeros: [Int] = (0..<12).map { ($0 * 5) % 9 - 4 }                 // [4][3]
        let bytes = M.model(
            nodes: [M.node("DequantizeLinear", inputs: ["q", "s", "z"], outputs: ["w"], int: [("axis", 1), ("block_size", 8)]),
                    M.node("Reshape", inputs: ["w", "shape"], outputs: ["W"]),
                    M.node("Conv", inputs: ["X", "W"], outputs: ["Y"], ints: [("kernel_shape", [3, 3]), ("pads", [1, 1, 1, 1])])],
            initializers: [M.integerInitializer("q", dims: [4, 18], values: q),
                           M.initializer("s", dims: [4, 3], values: scales),
                           M.integerInitializer("z", dims: [4, 3], values: zeros),
                           M.integerInitializer("shape", dims: [4], values: [0, 2, 3, -1], dataType: 7)],
            inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: [1, 4, 3, 3])])
        let graph = try ONNXReader.graph(bytes: bytes, name: "blocked.onnx")
        XCTAssertEqual(graph.operations.count, 1, "only the convolution runs")
        let network = try NeuralNetwork(graph: graph)
        XCTAssertEqual(network.outputShapes, [[1, 3, 3, 4]])
        fillInput(network)
        network.run()
        // Weight [o][k], k = (ci * 3 + ky) * 3 + kx: block k / 8 of row o.
        func weight(_ o: Int, _ k: Int) -> Float { Float(q[o * 18 + k] - zeros[o * 3 + k / 8]) * scales[o * 3 + k / 8] }
        var expected = [Float](repeating: 0, count: 36)
        for o in 0..<4 {
            for y in 0..<3 {
                for x in 0..<3 {
                    var sum: Float = 0
                    for ci in 0..<2 {
                        for ky in 0..<3 {
                            for kx in 0..<3 {
                                let iy = y + ky - 1, ix = x + kx - 1
                                guard iy >= 0, iy < 3, ix >= 0, ix < 3 else { continue }
                                sum += xValues[(ci * 3 + iy) * 3 + ix] * weight(o, (ci * 3 + ky) * 3 + kx)
                            }
                        }
                    }
                    expected[(y * 3 + x) * 4 + o] = sum
                }
            }
        }
        TestSupport.assertClose(network.output(0), expected, tolerance: 1e-5, "conv of dequantised weights")
    }

    /// The dequantisation itself: blocked along axis 0 (a bias of 5 values in blocks of 2, the last
    /// block short), per axis, per tensor, and without a zero point; bad scale shapes are refused.
    func testDequantizeBlockedPerAxisAndPerTensor() throws {
        func integers(_ values: [Int], dims: [Int]) -> ONNXModelFile.Initializer {
            var tensor = ONNXModelFile.Initializer()
            tensor.dataType = 3
            tensor.dims = dims.map { Int64($0) }
            tensor.listedIntegers = values.map { Int64($0) }
            return tensor
        }
        func floats(_ values: [Float], dims: [Int]) -> ONNXModelFile.Initializer {
            var tensor = ONNXModelFile.Initializer()
            tensor.dataType = 1
            tensor.dims = dims.map { Int64($0) }
            tensor.listedFloats = values
            return tensor
        }
        let x = integers([10, -20, 30, -40, 50], dims: [5])
        let blocked = try ONNXGraphBuilder.dequantize(x, scale: floats([0.5, 2, 0.25], dims: [3]),
                                                      zeroPoint: integers([1, -2, 10], dims: [3]), axis: 0, blockSize: 2)
        XCTAssertEqual(blocked.floats, [4.5, -10.5, 64, -76, 10])
        XCTAssertEqual(blocked.dims, [5])
        // [2][3] per axis 0 (one scale per row), then per tensor, then blocked along axis -1 without zero point.
        let matrix = integers([1, 2, 3, 4, 5, 6], dims: [2, 3])
        XCTAssertEqual(try ONNXGraphBuilder.dequantize(matrix, scale: floats([1, 10], dims: [2]),
                                                       zeroPoint: integers([0, 1], dims: [2]), axis: 0, blockSize: 0).floats,
                       [1, 2, 3, 30, 40, 50])
        XCTAssertEqual(try ONNXGraphBuilder.dequantize(matrix, scale: floats([2], dims: []), zeroPoint: integers([1], dims: []),
                                                       axis: 1, blockSize: 0).floats, [0, 2, 4, 6, 8, 10])
        XCTAssertEqual(try ONNXGraphBuilder.dequantize(matrix, scale: floats([1, 2, 3, 4], dims: [2, 2]), zeroPoint: nil,
                                                       axis: -1, blockSize: 2).floats, [1, 2, 6, 12, 15, 24])
        XCTAssertThrowsError(try ONNXGraphBuilder.dequantize(matrix, scale: floats([1, 2, 3], dims: [3, 1]), zeroPoint: nil,
                                                             axis: 1, blockSize: 2))
        XCTAssertThrowsError(try ONNXGraphBuilder.dequantize(matrix, scale: floats([1, 2, 3], dims: [3]), zeroPoint: nil,
                                                             axis: 0, blockSize: 0))
    }

    // MARK: Flatten + Gemm

    /// Dropout (a Constant ratio) + Flatten of a [1,2,3,3] image + Gemm (alpha, beta, bias) +
    /// BatchNormalization: our tensor is NHWC, so the Gemm's weight columns must be reordered from
    /// ONNX's (c, h, w) flattening to (h, w, c); with transB and without. The BatchNormalization folds
    /// into the fully connected layer.
    func testFlattenGemmReordersWeightColumnsToNHWC() throws {
        let b: [Float] = (0..<72).map { Float(($0 * 11) % 17) / 8 - 1 }   // [4][18] (transB) or [18][4]
        let bias: [Float] = [0.5, -1, 0.25, 2]
        let bn: [[Float]] = [[1.5, 0.5, 2, 1], [0.1, 0.2, -0.3, 0], [0.4, -0.1, 0.2, 1], [0.9, 1.1, 0.5, 4]]
        for transB in [1, 0] {
            let ratio = M.initializer("", dims: [], values: [0.4])
            let bytes = M.model(
                nodes: [M.node("Constant", inputs: [], outputs: ["ratio"], tensors: [("value", ratio)]),
                        M.node("Dropout", inputs: ["X", "ratio"], outputs: ["D"]),
                        M.node("Flatten", inputs: ["D"], outputs: ["F"]),
                        M.node("Gemm", inputs: ["F", "B", "C"], outputs: ["G"], int: [("transB", transB)],
                               floats: [("alpha", 0.5), ("beta", 2)]),
                        M.node("BatchNormalization", inputs: ["G", "g", "b", "m", "v"], outputs: ["Y"])],
                initializers: [M.initializer("B", dims: transB == 1 ? [4, 18] : [18, 4], values: b),
                               M.initializer("C", dims: [4], values: bias)]
                    + ["g", "b", "m", "v"].enumerated().map { M.initializer($1, dims: [4], values: bn[$0]) },
                inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: [1, 4])])
            let graph = try ONNXReader.graph(bytes: bytes, name: "gemm.onnx")
            XCTAssertEqual(graph.operations.count, 1, "Dropout and Flatten cost nothing, the BatchNormalization folds")
            let network = try NeuralNetwork(graph: graph)
            XCTAssertEqual(network.outputShapes, [[1, 4]])
            fillInput(network)
            network.run()
            let expected: [Float] = (0..<4).map { m in
                var sum: Float = 0
                // ONNX's Flatten of NCHW: k = (c * 3 + y) * 3 + x, which is xValues' own order.
                for k in 0..<18 { sum += xValues[k] * (transB == 1 ? b[m * 18 + k] : b[k * 4 + m]) }
                let gemm = 0.5 * sum + 2 * bias[m]
                return (gemm - bn[2][m]) / (bn[3][m] + 1e-5).squareRoot() * bn[0][m] + bn[1][m]
            }
            TestSupport.assertClose(network.output(0), expected, tolerance: 1e-5, "flatten + gemm, transB \(transB)")
        }
    }

    /// A Flatten whose NHWC order differs from ONNX's may only feed a Gemm.
    func testFlattenOfAnImageReadByAnythingButGemmIsRefused() {
        let bytes = M.model(
            nodes: [M.node("Flatten", inputs: ["X"], outputs: ["F"]), M.node("Relu", inputs: ["F"], outputs: ["Y"])],
            initializers: [], inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: [1, 18])])
        XCTAssertThrowsError(try ONNXReader.graph(bytes: bytes, name: "flatten.onnx")) { error in
            assertOneLine(error, contains: ["flatten.onnx", "Flatten", "Gemm"])
        }
    }

    // MARK: Element-wise constants, PRelu

    /// (X - 127.5) * (1 / 128) as SFace starts, then PRelu with per-channel slopes [C,1,1]: the Sub
    /// becomes a 1x1 scale-and-shift and the Mul folds into it.
    func testSubMulByScalarsAndPReluPerChannel() throws {
        let slopes: [Float] = [0.25, -0.5]
        let bytes = M.model(
            nodes: [M.node("Sub", inputs: ["X", "a"], outputs: ["S"]), M.node("Mul", inputs: ["S", "k"], outputs: ["T"]),
                    M.node("PRelu", inputs: ["T", "slope"], outputs: ["Y"])],
            initializers: [M.initializer("a", dims: [1], values: [1.5]), M.initializer("k", dims: [1], values: [0.5]),
                           M.initializer("slope", dims: [2, 1, 1], values: slopes)],
            inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: [1, 2, 3, 3])])
        let graph = try ONNXReader.graph(bytes: bytes, name: "affine.onnx")
        XCTAssertEqual(graph.operations.count, 2, "one scale-and-shift, one PRelu")
        let network = try NeuralNetwork(graph: graph)
        fillInput(network)
        network.run()
        var expected = [Float](repeating: 0, count: 18)
        for c in 0..<2 {
            for p in 0..<9 {
                let value = (xValues[c * 9 + p] - 1.5) * 0.5
                expected[p * 2 + c] = value >= 0 ? value : value * slopes[c]
            }
        }
        TestSupport.assertClose(network.output(0), expected, tolerance: 1e-6, "sub, mul, prelu")
    }

    /// Sub of two computed values, a constant that is neither a scalar nor per channel, and a
    /// DequantizeLinear whose scale does not fit are each one line naming the model.
    func testUnsupportedElementWiseFormsAreRefused() {
        let twoValues = M.model(
            nodes: [M.node("Relu", inputs: ["X"], outputs: ["R"]), M.node("Sub", inputs: ["X", "R"], outputs: ["Y"])],
            initializers: [], inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: [1, 2, 3, 3])])
        XCTAssertThrowsError(try ONNXReader.graph(bytes: twoValues, name: "sub.onnx")) { error in
            assertOneLine(error, contains: ["sub.onnx", "Sub"])
        }
        let perColumn = M.model(
            nodes: [M.node("Mul", inputs: ["X", "k"], outputs: ["Y"])],
            initializers: [M.initializer("k", dims: [3], values: [1, 2, 3])],
            inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: [1, 2, 3, 3])])
        XCTAssertThrowsError(try ONNXReader.graph(bytes: perColumn, name: "mul.onnx")) { error in
            assertOneLine(error, contains: ["mul.onnx", "[3]"])
        }
        let badScale = M.model(
            nodes: [M.node("DequantizeLinear", inputs: ["q", "s"], outputs: ["W"], int: [("axis", 1), ("block_size", 4)]),
                    M.node("Conv", inputs: ["X", "W"], outputs: ["Y"], ints: [("kernel_shape", [1, 1])])],
            initializers: [M.integerInitializer("q", dims: [2, 2, 1, 1], values: [1, 2, 3, 4]),
                           M.initializer("s", dims: [2, 2, 1, 1], values: [1, 1, 1, 1])],
            inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: [1, 2, 3, 3])])
        XCTAssertThrowsError(try ONNXReader.graph(bytes: badScale, name: "dq.onnx")) { error in
            assertOneLine(error, contains: ["dq.onnx", "DequantizeLinear", "blocked scale"])
        }
    }

    // MARK: Damaged files

    /// A small SFace-like model (quantised weights reshaped for a Conv, PRelu, Sub/Mul on the
    /// input, Dropout, Flatten, Gemm, BatchNormalization), then truncated and byte-mutated copies of
    /// it: each either loads and runs or throws a NeuralRuntimeError; none crashes.
    func testFuzzedQuantisedModelsNeverCrash() {
        let original = M.model(
            nodes: [M.node("Sub", inputs: ["X", "a"], outputs: ["S"]), M.node("Mul", inputs: ["S", "k"], outputs: ["T"]),
                    M.node("DequantizeLinear", inputs: ["q", "s", "z"], outputs: ["w"], int: [("axis", 1), ("block_size", 8)]),
                    M.node("Reshape", inputs: ["w", "shape"], outputs: ["W"]),
                    M.node("Conv", inputs: ["T", "W"], outputs: ["C"], ints: [("kernel_shape", [3, 3]), ("pads", [1, 1, 1, 1])]),
                    M.node("PRelu", inputs: ["C", "slope"], outputs: ["P"]),
                    M.node("Dropout", inputs: ["P"], outputs: ["D"]),
                    M.node("Flatten", inputs: ["D"], outputs: ["F"]),
                    M.node("Gemm", inputs: ["F", "B", "bias"], outputs: ["G"], int: [("transB", 1)]),
                    M.node("BatchNormalization", inputs: ["G", "g", "b", "m", "v"], outputs: ["Y"])],
            initializers: [M.initializer("a", dims: [1], values: [1.5]), M.initializer("k", dims: [1], values: [0.5]),
                           M.integerInitializer("q", dims: [4, 18], values: (0..<72).map { ($0 * 37) % 255 - 127 }),
                           M.initializer("s", dims: [4, 3], values: (0..<12).map { 0.01 + Float($0) * 0.003 }),
                           M.integerInitializer("z", dims: [4, 3], values: (0..<12).map { ($0 * 5) % 9 - 4 }),
                           M.integerInitializer("shape", dims: [4], values: [4, 2, 3, 3], dataType: 7),
                           M.initializer("slope", dims: [4, 1, 1], values: [0.1, 0.2, 0.3, 0.4]),
                           M.initializer("B", dims: [3, 36], values: (0..<108).map { Float($0 % 11) / 10 - 0.5 }),
                           M.initializer("bias", dims: [3], values: [0.1, 0.2, 0.3])]
                + ["g", "b", "m", "v"].map { M.initializer($0, dims: [3], values: [1, 0.5, 2]) },
            inputs: [M.value("X", dims: [1, 2, 3, 3])], outputs: [M.value("Y", dims: [1, 3])])
        XCTAssertNoThrow(try NeuralNetwork(graph: try ONNXReader.graph(bytes: original, name: "fuzz.onnx")))
        let (loaded, refused) = M.fuzz(original, seed: 2028)
        XCTAssertGreaterThan(refused, 100, "truncations are refused")
        XCTAssertGreaterThan(loaded, 0, "some mutations only touch values")
    }
}
