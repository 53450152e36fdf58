import Foundation

/// Reads a TFLite flatbuffer (schema v3) into a `GraphDescription`.
///
/// Float16 weights behind DEQUANTIZE operators are converted to float32 here, once; padding
/// modes become explicit paddings; integer parameter tensors (PAD amounts, RESHAPE shapes,
/// RESIZE sizes) become operation parameters. Every read is bounds-checked: bad bytes throw.
public enum TFLiteReader {
    /// Reads the model file at `path`.
    public static func graph(contentsOf path: String) throws -> GraphDescription {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw NeuralRuntimeError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try graph(bytes: [UInt8](data), name: (path as NSString).lastPathComponent)
    }

    /// Reads a model from memory; `name` appears in error messages.
    public static func graph(bytes: [UInt8], name: String) throws -> GraphDescription {
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
    /// Loads and prepares the TFLite model at `path`.
    public convenience init(tfliteFile path: String) throws {
        try self.init(graph: try TFLiteReader.graph(contentsOf: path))
    }
}
