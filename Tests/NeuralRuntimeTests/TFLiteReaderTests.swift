import Foundation
import XCTest
@testable import NeuralRuntime

/// The TFLite reader on real files and on bad bytes: every failure is a thrown, one-line error.
final class TFLiteReaderTests: XCTestCase {
    private func modelBytes(_ name: String = "face_detection_short_range") throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try TestSupport.modelPath(name + ".tflite"))))
    }

    private func assertOneLineError(_ body: @autoclosure () throws -> Any, contains fragments: [String],
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            let text = "\(error)"
            XCTAssertFalse(text.contains("\n"), "one line: \(text)", file: file, line: line)
            for fragment in fragments { XCTAssertTrue(text.contains(fragment), "'\(fragment)' in: \(text)", file: file, line: line) }
        }
    }

    func testReadsOperatorsOfTheShortRangeModel() throws {
        let graph = try TFLiteReader.graph(bytes: try modelBytes(), name: "short")
        var counts: [String: Int] = [:]
        for operation in graph.operations {
            let key: String
            switch operation.kind {
            case .conv2D: key = "conv"
            case .depthwiseConv2D: key = "depthwise"
            case .add: key = "add"
            case .activation: key = "relu"
            case .pad: key = "pad"
            case .reshape: key = "reshape"
            case .maxPool2D: key = "pool"
            case .concatenation: key = "concat"
            default: key = "other"
            }
            counts[key, default: 0] += 1
        }
        // The notes' census (DEQUANTIZE ops are folded into constants at load).
        XCTAssertEqual(counts, ["conv": 21, "relu": 17, "depthwise": 16, "add": 16, "pad": 11, "reshape": 4,
                                "pool": 3, "concat": 2])
        XCTAssertEqual(graph.inputs.map { graph.tensors[$0].name }, ["input"])
        XCTAssertEqual(graph.outputs.map { graph.tensors[$0].name }, ["regressors", "classificators"])
        XCTAssertEqual(TFLiteGraphBuilder.halfToFloat(0x3C00), 1)
        XCTAssertEqual(TFLiteGraphBuilder.halfToFloat(0xC000), -2)
        XCTAssertEqual(TFLiteGraphBuilder.halfToFloat(0x0001), Float(sign: .plus, exponent: -24, significand: 1))
        XCTAssertEqual(TFLiteGraphBuilder.halfToFloat(0x7BFF), 65504)
    }

    func testFullRangeReadsResizeOptions() throws {
        let graph = try TFLiteReader.graph(bytes: try modelBytes("face_detection_full_range"), name: "full")
        let resizes = graph.operations.compactMap { operation -> (Bool, Bool)? in
            if case let .resizeBilinear(_, _, align, half) = operation.kind { return (align, half) }
            return nil
        }
        XCTAssertEqual(resizes.count, 3)
        XCTAssertTrue(resizes.allSatisfy { !$0.0 && $0.1 })
    }

    func testMissingFile() {
        assertOneLineError(try NeuralNetwork(tfliteFile: "/nonexistent/model.tflite"),
                           contains: ["/nonexistent/model.tflite"])
    }

    func testTruncatedModel() throws {
        let bytes = try modelBytes()
        assertOneLineError(try TFLiteReader.graph(bytes: Array(bytes.prefix(bytes.count / 2)), name: "half.tflite"),
                           contains: ["half.tflite"])
        for length in [0, 3, 8, 16, 64, 200, 1000, 5000] {
            XCTAssertThrowsError(try TFLiteReader.graph(bytes: Array(bytes.prefix(length)), name: "cut"), "\(length)")
        }
    }

    func testRandomBytes() {
        var generator = SplitMix(seed: 42)
        for size in [4, 100, 4096, 100_000] {
            var bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            assertOneLineError(try TFLiteReader.graph(bytes: bytes, name: "random.bin"), contains: ["random.bin"])
            // Even with the right identifier the rest is garbage.
            if size >= 8 {
                bytes.replaceSubrange(4..<8, with: Array("TFL3".utf8))
                XCTAssertThrowsError(try TFLiteReader.graph(bytes: bytes, name: "random.bin"))
            }
        }
    }

    func testMutatedModelsNeverCrash() throws {
        let original = try modelBytes()
        var generator = SplitMix(seed: 7)
        var loaded = 0
        for _ in 0..<150 {
            var bytes = original
            // Mutations concentrated in the first 16 KB, where the tables live (weights come later).
            for _ in 0..<4 {
                let position = Int(generator.next() % UInt64(min(bytes.count, 16_384)))
                bytes[position] = UInt8(truncatingIfNeeded: generator.next())
            }
            guard let graph = try? TFLiteReader.graph(bytes: bytes, name: "mutated"),
                  let network = try? NeuralNetwork(graph: graph) else { continue }
            loaded += 1
            if loaded <= 3 { network.run() }
        }
        XCTAssertLessThan(loaded, 150, "some mutations must be caught")
    }

    func testUnsupportedOperatorIsNamed() throws {
        var bytes = try modelBytes()
        // Patch the first operator code to SOFTMAX (25) in both its int8 and int32 fields.
        let reader = FlatBufferReader(bytes: bytes)
        let model = try reader.root()
        let code = try XCTUnwrap(try model.tables(1).first)
        var patched = false
        if let at = try code.fieldOffset(0) { bytes[at] = 25; patched = true }
        if let at = try code.fieldOffset(3) { bytes.replaceSubrange(at..<(at + 4), with: [25, 0, 0, 0]); patched = true }
        XCTAssertTrue(patched)
        assertOneLineError(try TFLiteReader.graph(bytes: bytes, name: "face_detection_short_range.tflite"),
                           contains: ["unsupported TFLite operator SOFTMAX", "face_detection_short_range.tflite"])
    }
}

/// A small deterministic random generator for the fuzz-style tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
