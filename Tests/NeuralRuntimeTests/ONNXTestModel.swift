import NeuralRuntime
import XCTest

/// A tiny protocol-buffer writer that builds ONNX models for tests (field numbers from onnx.proto).
enum ONNXTestModel {
    /// Key plus varint payload.
    static func varint(_ field: Int, _ value: Int64) -> [UInt8] { key(field, 0) + encode(UInt64(bitPattern: value)) }

    /// Key plus length-delimited payload.
    static func bytes(_ field: Int, _ payload: [UInt8]) -> [UInt8] {
        key(field, 2) + encode(UInt64(payload.count)) + payload
    }

    static func string(_ field: Int, _ text: String) -> [UInt8] { bytes(field, Array(text.utf8)) }

    /// A float32 initializer stored as raw_data.
    static func initializer(_ name: String, dims: [Int], values: [Float]) -> [UInt8] {
        var raw: [UInt8] = []
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { raw += $0 } }
        return dims.flatMap { varint(1, Int64($0)) } + varint(2, 1) + string(8, name) + bytes(9, raw)
    }

    /// An integer initializer stored as raw_data: `dataType` 3 (int8, one byte each) or 7 (int64,
    /// eight bytes each), little-endian.
    static func integerInitializer(_ name: String, dims: [Int], values: [Int], dataType: Int = 3) -> [UInt8] {
        var raw: [UInt8] = []
        for value in values {
            if dataType == 7 {
                withUnsafeBytes(of: Int64(value).littleEndian) { raw += $0 }
            } else {
                raw.append(UInt8(bitPattern: Int8(value)))
            }
        }
        return dims.flatMap { varint(1, Int64($0)) } + varint(2, Int64(dataType)) + string(8, name) + bytes(9, raw)
    }

    /// A node; attributes are (name, ints) pairs, (name, int) for a single integer, (name, float)
    /// for a single float, or (name, tensor bytes) for a tensor (`initializer(...)`'s).
    static func node(_ type: String, inputs: [String], outputs: [String], ints: [(String, [Int])] = [],
                     int: [(String, Int)] = [], floats: [(String, Float)] = [],
                     tensors: [(String, [UInt8])] = []) -> [UInt8] {
        var body = inputs.flatMap { string(1, $0) } + outputs.flatMap { string(2, $0) } + string(4, type)
        for (name, value) in int { body += bytes(5, string(1, name) + varint(3, Int64(value))) }
        for (name, tensor) in tensors { body += bytes(5, string(1, name) + bytes(5, tensor)) }
        for (name, values) in ints {
            let attribute = values.count == 1 && name == "group" ? varint(3, Int64(values[0]))
                : bytes(8, values.flatMap { encode(UInt64(bitPattern: Int64($0))) })
            body += bytes(5, string(1, name) + attribute)
        }
        for (name, value) in floats {
            var word: [UInt8] = key(2, 5)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { word += $0 }
            body += bytes(5, string(1, name) + word)
        }
        return body
    }

    /// A float tensor value (graph input or output) with dimensions.
    static func value(_ name: String, dims: [Int]) -> [UInt8] {
        let shape = dims.flatMap { bytes(1, varint(1, Int64($0))) }
        return string(1, name) + bytes(2, bytes(1, varint(1, 1) + bytes(2, shape)))
    }

    /// A ModelProto (opset 9) around graph parts.
    static func model(nodes: [[UInt8]], initializers: [[UInt8]], inputs: [[UInt8]], outputs: [[UInt8]]) -> [UInt8] {
        let graph = nodes.flatMap { bytes(1, $0) } + string(2, "test") + initializers.flatMap { bytes(5, $0) }
            + inputs.flatMap { bytes(11, $0) } + outputs.flatMap { bytes(12, $0) }
        return varint(1, 4) + bytes(8, varint(2, 9)) + bytes(7, graph)
    }

    /// Loads and runs 400 truncated (the first 100) and byte-mutated copies of `original`; each must
    /// either load and run or throw a `NeuralRuntimeError`. Returns how many did which.
    static func fuzz(_ original: [UInt8], seed: UInt64) -> (loaded: Int, refused: Int) {
        var generator = SplitMix(seed: seed)
        var loaded = 0, refused = 0
        for case_ in 0..<400 {
            var bytes = original
            if case_ < 100 {
                bytes = Array(original.prefix(Int(generator.next() % UInt64(original.count))))
            } else {
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let at = Int(generator.next() % UInt64(bytes.count))
                    bytes[at] = case_ % 3 == 0 ? bytes[at] ^ (1 << UInt8(generator.next() % 8))
                        : UInt8(truncatingIfNeeded: generator.next())
                }
            }
            do {
                let network = try NeuralNetwork(graph: try ONNXReader.graph(bytes: bytes, name: "fuzz.onnx"))
                network.run()
                loaded += 1
            } catch {
                XCTAssertTrue(error is NeuralRuntimeError, "case \(case_): \(error)")
                refused += 1
            }
        }
        return (loaded, refused)
    }

    private static func key(_ field: Int, _ wireType: Int) -> [UInt8] { encode(UInt64(field << 3 | wireType)) }

    private static func encode(_ value: UInt64) -> [UInt8] {
        var rest = value
        var result: [UInt8] = []
        repeat {
            let byte = UInt8(rest & 0x7F)
            rest >>= 7
            result.append(rest == 0 ? byte : byte | 0x80)
        } while rest != 0
        return result
    }
}
