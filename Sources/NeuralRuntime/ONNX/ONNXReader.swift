import Foundation

/// Reads an ONNX model (a convolutional network: Conv, ConvTranspose, BatchNormalization, Relu,
/// Add, Sigmoid, PRelu, Sub/Mul/Div by constants, Dropout, Identity, Flatten + Gemm, and weights
/// given by DequantizeLinear, Reshape or Constant nodes, computed at load: `ONNXGraphBuilder`) into
/// a `GraphDescription`, the TFLite reader's sibling on the same runtime.
///
/// The NCHW file becomes an NHWC graph: weights are transposed once here, the input is
/// [1,H,W,C] and the outputs are [1,h,w,C]. The input's declared batch and spatial sizes are
/// ignored beyond a default: set the input tensor's shape (or use `ResizableNetwork`) for the
/// size to run at. Every read is bounds-checked: bad bytes throw, they never trap.
package enum ONNXReader {
    /// Reads the model file at `path`.
    package static func graph(contentsOf path: String) throws -> GraphDescription {
        let file = try ModelFileBytes.read(path)
        return try graph(bytes: file.bytes, name: file.name)
    }

    /// Reads a model from memory; `name` appears in error messages.
    package static func graph(bytes: [UInt8], name: String) throws -> GraphDescription {
        try graph(bytes: ModelBytes(bytes), name: name)
    }

    /// Reads a model from a file's bytes (mapped); `name` appears in error messages.
    static func graph(bytes: ModelBytes, name: String) throws -> GraphDescription {
        let file: ONNXModelFile
        do {
            file = try ONNXModelFile(bytes: bytes)
        } catch let error as ProtobufError {
            throw NeuralRuntimeError.malformed(model: name, reason: error.description)
        }
        guard !file.nodes.isEmpty else { throw NeuralRuntimeError.malformed(model: name, reason: "no graph nodes") }
        return try ONNXGraphBuilder(file: file, name: name).build()
    }
}
