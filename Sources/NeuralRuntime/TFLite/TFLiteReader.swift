import Foundation

/// Reads a TFLite flatbuffer (schema v3) into a `GraphDescription`.
///
/// Float16 weights behind DEQUANTIZE operators are converted to float32 here, once; padding
/// modes become explicit paddings; integer parameter tensors (PAD amounts, RESHAPE shapes,
/// RESIZE sizes) become operation parameters. Every read is bounds-checked: bad bytes throw.
package enum TFLiteReader {
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
        guard bytes.count >= 8, bytes[4..<8].elementsEqual("TFL3".utf8) else {
            throw NeuralRuntimeError.malformed(model: name, reason: "no TFL3 file identifier")
        }
        do {
            return try TFLiteGraphBuilder(reader: FlatBufferReader(bytes: bytes), name: name).build()
        } catch let error as FlatBufferError {
            throw NeuralRuntimeError.malformed(model: name, reason: error.description)
        }
    }
}

extension NeuralNetwork {
    /// Loads and prepares the TFLite model at `path` for the kernel path `kernelPath`.
    package convenience init(tfliteFile path: String, kernelPath: KernelPath = .default) throws {
        try self.init(graph: try TFLiteReader.graph(contentsOf: path), kernelPath: kernelPath)
    }
}
