import XCTest
@testable import NeuralRuntime

/// AVERAGE_POOL_2D and FULLY_CONNECTED (added for dlib's face-recognition network) by hand.
final class PoolingAndFullyConnectedTests: XCTestCase {
    /// Runs `kind` on one input tensor followed by `constants` (absent ones as nil).
    private func output(_ kind: OperationKind, _ input: [Float], shape: [Int], constants: [([Int], [Float])?] = [])
        throws -> (shape: [Int], values: [Float]) {
        var tensors = [TensorDescription(name: "in", shape: shape)]
        var inputs = [0]
        for constant in constants {
            if let (constantShape, values) = constant {
                tensors.append(TensorDescription(name: "c\(tensors.count)", shape: constantShape, constant: values))
                inputs.append(tensors.count - 1)
            } else {
                inputs.append(-1)
            }
        }
        tensors.append(TensorDescription(name: "out", shape: []))
        let operation = OperationDescription(kind: kind, inputs: inputs, outputs: [tensors.count - 1])
        let network = try NeuralNetwork(graph: GraphDescription(tensors: tensors, operations: [operation], inputs: [0],
                                                                outputs: [tensors.count - 1], name: "test"))
        _ = network.input(0).update(from: input)
        network.run()
        return (network.outputShapes[0], Array(network.output(0)))
    }

    func testAveragePoolWindowsStridesAndPaddingNotCounted() throws {
        // 3x3 picture, one channel: 1...9. A 2x2 window, stride 2, one padded row and column after.
        let pool = PoolParameters(filterH: 2, filterW: 2, strideH: 2, strideW: 2,
                                  padding: SpatialPadding(top: 0, left: 0, bottom: 1, right: 1))
        let result = try output(.averagePool2D(pool), (1...9).map(Float.init), shape: [1, 3, 3, 1])
        XCTAssertEqual(result.shape, [1, 2, 2, 1])
        // (1+2+4+5)/4, (3+6)/2, (7+8)/2, 9/1: padded cells are left out of the mean.
        XCTAssertEqual(result.values, [3, 4.5, 7.5, 9])
    }

    func testGlobalAveragePoolOverVectorAndTailChannels() throws {
        // 2x3 picture, 11 channels (one vector of 8 and a tail of 3); the window covers it all.
        let channels = 11
        let input = (0..<(6 * channels)).map { Float(($0 * 7) % 13) - 6 }
        let result = try output(.averagePool2D(PoolParameters(filterH: 2, filterW: 3, strideH: 1, strideW: 1,
                                                              activation: .relu)),
                                input, shape: [1, 2, 3, channels])
        XCTAssertEqual(result.shape, [1, 1, 1, channels])
        for c in 0..<channels {
            let mean = (0..<6).map { input[$0 * channels + c] }.reduce(0, +) / 6
            XCTAssertEqual(result.values[c], max(0, mean), accuracy: 1e-5, "channel \(c)")
        }
    }

    func testFullyConnectedWithAndWithoutBias() throws {
        // 2 batch entries of [1,1,3] values, 10 outputs (a vector of 8 and a tail of 2).
        let input: [Float] = [1, 2, 3, -1, 0.5, 2]
        let weights = (0..<30).map { Float($0 % 7) - 3 }
        let bias = (0..<10).map { Float($0) / 10 }
        var expected: [Float] = []
        for n in 0..<2 {
            for m in 0..<10 {
                var sum = bias[m]
                for k in 0..<3 { sum += weights[m * 3 + k] * input[n * 3 + k] }
                expected.append(sum)
            }
        }
        let withBias = try output(.fullyConnected(.none), input, shape: [2, 1, 1, 3],
                                  constants: [([10, 3], weights), ([10], bias)])
        XCTAssertEqual(withBias.shape, [2, 10])
        for (a, e) in zip(withBias.values, expected) { XCTAssertEqual(a, e, accuracy: 1e-5) }
        let noBias = try output(.fullyConnected(.relu), input, shape: [2, 3], constants: [([10, 3], weights), nil])
        for (index, (a, e)) in zip(noBias.values, expected).enumerated() {
            XCTAssertEqual(a, max(0, e - bias[index % 10]), accuracy: 1e-5)
        }
    }

    /// Each output adds its products in input order, one rounding each, whatever the kernel's loop
    /// order (rows read four at a time, a remainder of 3 here): the same floats as that sum written
    /// out, so embeddings do not move when the loops change.
    func testFullyConnectedSumsInInputOrderExactly() throws {
        let inputs = 1003, outputs = 13
        let input = (0..<(2 * inputs)).map { Float(($0 * 7919) % 1009) / 1009 - 0.5 }
        let weights = (0..<(outputs * inputs)).map { Float(($0 * 104_729) % 997) / 997 - 0.5 }
        let bias = (0..<outputs).map { Float($0) / 7 - 1 }
        let result = try output(.fullyConnected(.none), input, shape: [2, inputs],
                                constants: [([outputs, inputs], weights), ([outputs], bias)])
        for n in 0..<2 {
            for m in 0..<outputs {
                var sum = bias[m]
                for k in 0..<inputs { sum += input[n * inputs + k] * weights[m * inputs + k] }
                XCTAssertEqual(result.values[n * outputs + m], sum, "batch \(n) output \(m)")
            }
        }
    }

    func testFullyConnectedRejectsMismatchedWeights() {
        XCTAssertThrowsError(try output(.fullyConnected(.none), [1, 2, 3], shape: [1, 3], constants: [([4, 2], [Float](repeating: 0, count: 8))]))
    }
}
