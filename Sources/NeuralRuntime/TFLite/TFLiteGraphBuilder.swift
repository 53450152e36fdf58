/// Walks the flatbuffer tables of one TFLite model and translates them (see `TFLiteReader`).
struct TFLiteGraphBuilder {
    let reader: FlatBufferReader
    let name: String

    /// A tensor as the file declares it.
    private struct FileTensor {
        let name: String
        let shape: [Int]
        let type: Int
        let buffer: Int
    }

    private func malformed(_ reason: String) -> NeuralRuntimeError { .malformed(model: name, reason: reason) }
    private func unsupported(_ reason: String) -> NeuralRuntimeError { .unsupported(model: name, reason: reason) }

    func build() throws -> GraphDescription {
        let model = try reader.root()
        let version = try model.uint32(0, default: 0)
        guard version == 3 else { throw unsupported("schema version \(version) (expected 3)") }
        let codes = try model.tables(1).map { code -> Int in
            // Old files fill only the int8 field; new files may leave it at 127 (placeholder).
            max(try code.int8(0, default: 0), try code.int32(3, default: 0))
        }
        let subgraphs = try model.tables(2)
        guard let subgraph = subgraphs.first else { throw malformed("no subgraph") }
        let buffers = try model.tables(4)

        let fileTensors = try subgraph.tables(0).map { table in
            FileTensor(name: try table.string(3), shape: try table.int32s(0), type: try table.int8(1, default: 0),
                       buffer: try table.uint32(2, default: 0))
        }
        var tensors = fileTensors.map { TensorDescription(name: $0.name, shape: $0.shape) }
        for (index, tensor) in fileTensors.enumerated() {
            guard tensor.shape.allSatisfy({ $0 >= 0 && $0 < 1 << 24 }) else {
                throw malformed("tensor '\(tensor.name)' has shape \(tensor.shape)")
            }
            guard tensor.type == TFLiteBuiltin.float32 || tensor.type == TFLiteBuiltin.float16 else { continue }
            if let bytes = try bufferBytes(tensor.buffer, buffers: buffers) {
                tensors[index].constant = try floats(bytes, tensor: tensor)
            }
        }
        func checkedIndex(_ index: Int) throws -> Int {
            guard index == -1 || tensors.indices.contains(index) else { throw malformed("tensor index \(index)") }
            return index
        }
        func intConstant(_ index: Int) throws -> [Int] {
            guard tensors.indices.contains(index), fileTensors[index].type == TFLiteBuiltin.int32,
                  let range = try bufferBytes(fileTensors[index].buffer, buffers: buffers) else {
                throw unsupported("tensor #\(index) must be a constant int32 tensor")
            }
            return stride(from: range.lowerBound, to: range.upperBound - 3, by: 4).map { at in
                Int(Int32(bitPattern: UInt32(reader.bytes[at]) | UInt32(reader.bytes[at + 1]) << 8
                    | UInt32(reader.bytes[at + 2]) << 16 | UInt32(reader.bytes[at + 3]) << 24))
            }
        }

        var operations: [OperationDescription] = []
        for (position, table) in try subgraph.tables(3).enumerated() {
            let opcodeIndex = try table.uint32(0, default: 0)
            guard codes.indices.contains(opcodeIndex) else {
                throw malformed("operator \(position) uses operator code \(opcodeIndex) of \(codes.count)")
            }
            let code = codes[opcodeIndex]
            let inputs = try table.int32s(1).map(checkedIndex)
            let outputs = try table.int32s(2).map(checkedIndex)
            guard outputs.count == 1, outputs[0] >= 0, !inputs.isEmpty, inputs[0] >= 0 else {
                throw malformed("operator \(position) (\(TFLiteOperatorNames.name(code))) has bad inputs/outputs")
            }
            let options = try table.table(4)
            let output = outputs[0]
            func shape(_ index: Int) -> [Int] { index >= 0 ? fileTensors[index].shape : [] }
            func padding(_ mode: Int, kernelH: Int, kernelW: Int, strideH: Int, strideW: Int, dilationH: Int,
                         dilationW: Int) throws -> SpatialPadding {
                if mode == TFLiteBuiltin.paddingValid { return .zero }
                guard mode == TFLiteBuiltin.paddingSame else { throw unsupported("padding mode \(mode)") }
                let data = shape(inputs[0])
                guard data.count == 4 else { throw malformed("operator \(position) input is not 4-D") }
                return .same(inputHeight: data[1], inputWidth: data[2], kernelHeight: kernelH, kernelWidth: kernelW,
                             strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW)
            }
            func operation(_ kind: OperationKind, _ operands: [Int]) {
                operations.append(OperationDescription(kind: kind, inputs: operands, outputs: [output]))
            }

            switch code {
            case TFLiteBuiltin.dequantize:
                // Float16 weights: converted at load, so the output simply becomes a constant.
                guard let values = tensors[inputs[0]].constant else {
                    throw unsupported("DEQUANTIZE of a non-constant tensor '\(fileTensors[inputs[0]].name)'")
                }
                tensors[output].constant = values
            case TFLiteBuiltin.conv2D, TFLiteBuiltin.depthwiseConv2D:
                let isDepthwise = code == TFLiteBuiltin.depthwiseConv2D
                let filter = shape(inputs.count > 1 ? inputs[1] : -1)
                guard inputs.count >= 2, filter.count == 4 else { throw malformed("operator \(position) has no 4-D filter") }
                let strideW = try options?.int32(1, default: 1) ?? 1, strideH = try options?.int32(2, default: 1) ?? 1
                let dilationW = try options?.int32(isDepthwise ? 5 : 4, default: 1) ?? 1
                let dilationH = try options?.int32(isDepthwise ? 6 : 5, default: 1) ?? 1
                let activation = try fusedActivation(try options?.int8(isDepthwise ? 4 : 3, default: 0) ?? 0)
                let pad = try padding(try options?.int8(0, default: 0) ?? 0, kernelH: filter[1], kernelW: filter[2],
                                      strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW)
                let parameters = ConvolutionParameters(strideH: strideH, strideW: strideW, dilationH: dilationH,
                                                       dilationW: dilationW, padding: pad, activation: activation)
                let operands = Array(inputs.prefix(3))
                if isDepthwise {
                    let channels = shape(inputs[0]).last ?? 0
                    guard channels > 0, filter[3] % channels == 0 else {
                        throw malformed("operator \(position) depthwise filter \(filter) vs \(channels) channels")
                    }
                    operation(.depthwiseConv2D(parameters, depthMultiplier: filter[3] / channels), operands)
                } else {
                    operation(.conv2D(parameters), operands)
                }
            case TFLiteBuiltin.add:
                guard inputs.count == 2 else { throw malformed("ADD needs two inputs") }
                operation(.add(try fusedActivation(try options?.int8(0, default: 0) ?? 0)), inputs)
            case TFLiteBuiltin.relu:
                operation(.activation(.relu), [inputs[0]])
            case TFLiteBuiltin.relu6:
                operation(.activation(.relu6), [inputs[0]])
            case TFLiteBuiltin.reluMinus1To1:
                operation(.activation(.reluMinus1To1), [inputs[0]])
            case TFLiteBuiltin.prelu:
                guard inputs.count == 2 else { throw malformed("PRELU needs two inputs") }
                operation(.prelu, inputs)
            case TFLiteBuiltin.maxPool2D:
                guard let options else { throw malformed("MAX_POOL_2D without options") }
                let strideW = try options.int32(1, default: 1), strideH = try options.int32(2, default: 1)
                let filterW = try options.int32(3, default: 1), filterH = try options.int32(4, default: 1)
                let pad = try padding(try options.int8(0, default: 0), kernelH: filterH, kernelW: filterW,
                                      strideH: strideH, strideW: strideW, dilationH: 1, dilationW: 1)
                operation(.maxPool2D(PoolParameters(filterH: filterH, filterW: filterW, strideH: strideH,
                                                    strideW: strideW, padding: pad,
                                                    activation: try fusedActivation(try options.int8(5, default: 0)))),
                          [inputs[0]])
            case TFLiteBuiltin.pad:
                guard inputs.count >= 2 else { throw malformed("PAD needs a paddings tensor") }
                let amounts = try intConstant(inputs[1])
                guard amounts.count % 2 == 0 else { throw malformed("PAD paddings have odd length") }
                operation(.pad(stride(from: 0, to: amounts.count, by: 2).map {
                    PadAmount(before: amounts[$0], after: amounts[$0 + 1])
                }), [inputs[0]])
            case TFLiteBuiltin.reshape:
                var target = shape(output)
                if inputs.count >= 2, inputs[1] >= 0 {
                    target = try intConstant(inputs[1])
                } else if let options, let newShape = try? options.int32s(0), !newShape.isEmpty {
                    target = newShape
                }
                operation(.reshape(target), [inputs[0]])
            case TFLiteBuiltin.concatenation:
                guard inputs.allSatisfy({ $0 >= 0 }) else { throw malformed("CONCATENATION with an absent input") }
                operation(.concatenation(axis: try options?.int32(0, default: 0) ?? 0,
                                         activation: try fusedActivation(try options?.int8(1, default: 0) ?? 0)),
                          inputs)
            case TFLiteBuiltin.resizeBilinear:
                guard inputs.count >= 2 else { throw malformed("RESIZE_BILINEAR needs a size tensor") }
                let size = try intConstant(inputs[1])
                guard size.count == 2 else { throw malformed("RESIZE_BILINEAR size has \(size.count) values") }
                operation(.resizeBilinear(height: size[0], width: size[1],
                                          alignCorners: try options?.bool(2) ?? false,
                                          halfPixelCenters: try options?.bool(3) ?? false), [inputs[0]])
            default:
                throw NeuralRuntimeError.unsupportedOperator(model: name, format: "TFLite",
                                                             name: TFLiteOperatorNames.name(code))
            }
        }

        // Every tensor the runtime computes must be float32.
        for operation in operations {
            for index in operation.inputs + operation.outputs where index >= 0 && tensors[index].constant == nil {
                guard fileTensors[index].type == TFLiteBuiltin.float32 else {
                    throw unsupported("tensor '\(fileTensors[index].name)' has type \(fileTensors[index].type)")
                }
            }
        }
        let inputs = try subgraph.int32s(1).map(checkedIndex)
        let outputs = try subgraph.int32s(2).map(checkedIndex)
        guard inputs.allSatisfy({ $0 >= 0 }), outputs.allSatisfy({ $0 >= 0 }) else {
            throw malformed("subgraph input/output index -1")
        }
        return GraphDescription(tensors: tensors, operations: operations, inputs: inputs, outputs: outputs, name: name)
    }

    /// The byte range of a buffer's data, or nil for an empty buffer (a non-constant tensor).
    private func bufferBytes(_ index: Int, buffers: [FlatTable]) throws -> Range<Int>? {
        guard index > 0 else { return nil }
        guard buffers.indices.contains(index) else { throw malformed("buffer index \(index) of \(buffers.count)") }
        let buffer = buffers[index]
        if let (start, count) = try buffer.vector(0, elementSize: 1), count > 0 { return start..<(start + count) }
        // Large models keep data after the flatbuffer, addressed by offset and size.
        let offset = try buffer.uint64(1), size = try buffer.uint64(2)
        guard offset > 1, size > 0 else { return nil }
        guard offset < UInt64(Int.max / 2), size < UInt64(Int.max / 2) else { throw malformed("buffer \(index) offset") }
        try reader.check(Int(offset), Int(size))
        return Int(offset)..<Int(offset + size)
    }

    /// The values of a float32 or float16 constant, checked against its shape.
    private func floats(_ range: Range<Int>, tensor: FileTensor) throws -> [Float] {
        let width = tensor.type == TFLiteBuiltin.float16 ? 2 : 4
        guard let count = ShapeArithmetic.elementCount(tensor.shape), range.count == count * width else {
            throw malformed("tensor '\(tensor.name)' has \(range.count) bytes for shape \(tensor.shape)")
        }
        let bytes = reader.bytes
        if width == 4 { return bytes.littleEndianFloats(range) }
        var values = [Float](repeating: 0, count: count)
        var at = range.lowerBound
        for i in 0..<count {
            values[i] = Self.halfToFloat(UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)
            at += 2
        }
        return values
    }

    /// IEEE 754 half precision to single precision (exact).
    static func halfToFloat(_ half: UInt16) -> Float {
        let sign = UInt32(half & 0x8000) << 16
        let exponent = Int(half >> 10) & 0x1F
        let mantissa = UInt32(half & 0x3FF)
        if exponent == 0 {
            // Zero or subnormal: mantissa * 2^-24.
            let magnitude = Float(mantissa) * Float(sign: .plus, exponent: -24, significand: 1)
            return sign != 0 ? -magnitude : magnitude
        }
        if exponent == 0x1F { return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13) }
        return Float(bitPattern: sign | UInt32(exponent + 112) << 23 | mantissa << 13)
    }

    /// The `ActivationFunctionType` value of a fused activation.
    private func fusedActivation(_ value: Int) throws -> Activation {
        switch value {
        case 0: return .none
        case 1: return .relu
        case 2: return .reluMinus1To1
        case 3: return .relu6
        default: throw unsupported("fused activation function \(value)")
        }
    }
}
