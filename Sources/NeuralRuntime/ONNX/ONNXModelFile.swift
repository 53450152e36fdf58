/// The parts of an ONNX `ModelProto` a convolutional network needs, read from the wire format
/// (field numbers from onnx.proto). Everything else in the file is skipped.
struct ONNXModelFile {
    /// One `NodeProto`.
    struct Node {
        var opType = ""
        var domain = ""
        var name = ""
        var inputs: [String] = []
        var outputs: [String] = []
        var attributes: [String: Attribute] = [:]
    }

    /// One `AttributeProto` (only the kinds CNN operators use).
    struct Attribute {
        var integer: Int64?
        var float: Float?
        var integers: [Int64] = []
        var text: String?
        /// A tensor value (`t`: a Constant node's `value`).
        var tensor: Initializer?
    }

    /// One `TensorProto` initializer.
    struct Initializer {
        var name = ""
        var dims: [Int64] = []
        var dataType = 0
        /// Values listed one by one (`float_data`).
        var listedFloats: [Float] = []
        /// A float tensor's `raw_data`, read in place (the weights are copied once, transposed).
        var rawFloats: StoredFloats?
        var int64s: [Int64] = []
        /// An 8-, 16- or 32-bit integer tensor's `raw_data`, read in place (quantised weights).
        var rawIntegers: StoredIntegers?
        /// Values of an 8-, 16- or 32-bit integer tensor listed one by one (`int32_data`).
        var listedIntegers: [Int64] = []

        /// Whether the tensor holds integers (8 to 64 bits, signed or not).
        var isInteger: Bool { ONNXModelFile.integerWidths[dataType] != nil }
        /// How many integer values the tensor holds.
        var integerCount: Int {
            dataType == ONNXModelFile.int64 ? int64s.count : rawIntegers?.count ?? listedIntegers.count
        }
        /// Integer value `index`.
        func integer(at index: Int) -> Int64 {
            if dataType == ONNXModelFile.int64 { return int64s[index] }
            return rawIntegers.map { $0[index] } ?? listedIntegers[index]
        }

        /// Its integer values as floats (exact for 8- and 16-bit values), read in one pass.
        var integersAsFloats: [Float] {
            if let rawIntegers { return rawIntegers.floats }
            return dataType == ONNXModelFile.int64 ? int64s.map { Float($0) } : listedIntegers.map { Float($0) }
        }

        /// How many float values the tensor holds.
        var floatCount: Int { rawFloats?.count ?? listedFloats.count }
        /// Its float values, copied out.
        var floats: [Float] { rawFloats?.array ?? listedFloats }
        /// Float value `index`.
        func float(at index: Int) -> Float { rawFloats.map { $0[index] } ?? listedFloats[index] }
    }

    /// One graph input or output (`ValueInfoProto`): name, element type and dimensions; a
    /// symbolic or missing dimension is -1.
    struct Value {
        var name = ""
        var elementType = 0
        var dims: [Int64] = []
    }

    static let float = 1, int64 = 7
    /// Integer element types (TensorProto.DataType) → (bytes per value, signed).
    static let integerWidths: [Int: (bytes: Int, signed: Bool)] = [2: (1, false), 3: (1, true), 4: (2, false),
                                                                     5: (2, true), 6: (4, true), 7: (8, true)]

    var opset: Int64 = 0
    var nodes: [Node] = []
    var initializers: [Initializer] = []
    var inputs: [Value] = []
    var outputs: [Value] = []

    /// Parses `bytes` as a ModelProto.
    init(bytes: ModelBytes) throws {
        let reader = ProtobufReader(bytes: bytes)
        var graphRange: Range<Int>?
        for field in try reader.fields(in: 0..<bytes.count) {
            switch field.number {
            case 7: try reader.expect(field, ProtobufReader.lengthDelimited); graphRange = field.range
            case 8:
                for inner in try reader.fields(in: try Self.payload(field, reader)) where inner.number == 2 {
                    opset = max(opset, Int64(bitPattern: inner.value))
                }
            default: continue
            }
        }
        guard let graphRange else { throw ProtobufError.truncated(offset: bytes.count) }
        for field in try reader.fields(in: graphRange) {
            switch field.number {
            case 1: nodes.append(try Self.node(try Self.payload(field, reader), reader))
            case 5: initializers.append(try Self.initializer(try Self.payload(field, reader), reader))
            case 11: inputs.append(try Self.value(try Self.payload(field, reader), reader))
            case 12: outputs.append(try Self.value(try Self.payload(field, reader), reader))
            default: continue
            }
        }
    }

    private static func payload(_ field: ProtobufReader.Field, _ reader: ProtobufReader) throws -> Range<Int> {
        try reader.expect(field, ProtobufReader.lengthDelimited)
        return field.range
    }

    private static func node(_ range: Range<Int>, _ reader: ProtobufReader) throws -> Node {
        var node = Node()
        for field in try reader.fields(in: range) {
            switch field.number {
            case 1: node.inputs.append(try reader.string(field))
            case 2: node.outputs.append(try reader.string(field))
            case 3: node.name = try reader.string(field)
            case 4: node.opType = try reader.string(field)
            case 7: node.domain = try reader.string(field)
            case 5:
                var name = ""
                var attribute = Attribute()
                for inner in try reader.fields(in: try payload(field, reader)) {
                    switch inner.number {
                    case 1: name = try reader.string(inner)
                    case 2: attribute.float = try reader.floats(inner).first
                    case 3: try reader.expect(inner, ProtobufReader.varint); attribute.integer = Int64(bitPattern: inner.value)
                    case 4: attribute.text = try reader.string(inner)
                    case 5: attribute.tensor = try initializer(try payload(inner, reader), reader)
                    case 8: attribute.integers += try reader.integers(inner)
                    default: continue
                    }
                }
                node.attributes[name] = attribute
            default: continue
            }
        }
        return node
    }

    private static func initializer(_ range: Range<Int>, _ reader: ProtobufReader) throws -> Initializer {
        var tensor = Initializer()
        var raw: Range<Int>?
        for field in try reader.fields(in: range) {
            switch field.number {
            case 1: tensor.dims += try reader.integers(field)
            case 2: try reader.expect(field, ProtobufReader.varint); tensor.dataType = Int(truncatingIfNeeded: field.value)
            case 4: tensor.listedFloats += try reader.floats(field)
            // int32_data holds int8 to int32 tensors' values (each a sign-extended varint).
            case 5: tensor.listedIntegers += try reader.integers(field).map { Int64(Int32(truncatingIfNeeded: $0)) }
            case 7: tensor.int64s += try reader.integers(field)
            case 8: tensor.name = try reader.string(field)
            case 9: raw = try payload(field, reader)
            default: continue
            }
        }
        if let raw {
            if tensor.dataType == float {
                guard raw.count % 4 == 0 else { throw ProtobufError.truncated(offset: raw.upperBound) }
                tensor.rawFloats = StoredFloats(bytes: reader.bytes, start: raw.lowerBound, count: raw.count / 4)
            }
            if tensor.dataType == int64 {
                tensor.int64s = try reader.littleEndianInt64s(raw)
            } else if let (width, signed) = integerWidths[tensor.dataType] {
                guard raw.count % width == 0 else { throw ProtobufError.truncated(offset: raw.upperBound) }
                tensor.rawIntegers = StoredIntegers(bytes: reader.bytes, start: raw.lowerBound, count: raw.count / width,
                                                    width: width, signed: signed)
            }
        }
        return tensor
    }

    private static func value(_ range: Range<Int>, _ reader: ProtobufReader) throws -> Value {
        var value = Value()
        for field in try reader.fields(in: range) {
            switch field.number {
            case 1: value.name = try reader.string(field)
            case 2:
                // TypeProto.tensor_type (1) -> elem_type (1), shape (2) -> dim (1) -> dim_value (1).
                for type in try reader.fields(in: try payload(field, reader)) where type.number == 1 {
                    for tensor in try reader.fields(in: try payload(type, reader)) {
                        if tensor.number == 1 { value.elementType = Int(truncatingIfNeeded: tensor.value); continue }
                        guard tensor.number == 2 else { continue }
                        for dim in try reader.fields(in: try payload(tensor, reader)) where dim.number == 1 {
                            let size = try reader.fields(in: try payload(dim, reader)).first { $0.number == 1 }
                            value.dims.append(size.map { Int64(bitPattern: $0.value) } ?? -1)
                        }
                    }
                }
            default: continue
            }
        }
        return value
    }
}

/// Little-endian integers of 1, 2 or 4 bytes, signed or not, stored in a model file and read in
/// place (a quantised tensor's `raw_data`: its values are computed to floats once, at load).
struct StoredIntegers {
    let bytes: ModelBytes
    /// Where the first value starts, in bytes.
    let start: Int
    let count: Int
    /// Bytes per value: 1, 2 or 4.
    let width: Int
    let signed: Bool

    /// Every value as a float, read straight from the file's bytes (bounds checked once).
    var floats: [Float] {
        precondition(start >= 0 && count >= 0 && start + width * count <= bytes.buffer.count,
                     "model file range \(start)..<\(start + width * count) out of range")
        guard count > 0, let base = bytes.buffer.baseAddress else { return [] }
        let source = base + start
        return [Float](unsafeUninitializedCapacity: count) { values, initialized in
            for index in 0..<count {
                switch (width, signed) {
                case (1, true): values[index] = Float(source.load(fromByteOffset: index, as: Int8.self))
                case (1, false): values[index] = Float(source.load(fromByteOffset: index, as: UInt8.self))
                default: values[index] = Float(self[index])
                }
            }
            initialized = count
        }
    }

    subscript(index: Int) -> Int64 {
        precondition(index >= 0 && index < count, "value \(index) of \(count)")
        let at = start + width * index
        switch width {
        case 1: return signed ? Int64(Int8(bitPattern: bytes[at])) : Int64(bytes[at])
        case 2:
            let bits = UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
            return signed ? Int64(Int16(bitPattern: bits)) : Int64(bits)
        default:
            let bits = bytes.uint32(at: at)
            return signed ? Int64(Int32(bitPattern: bits)) : Int64(bits)
        }
    }
}
