/// A dlib network read for the runtime, with the input convention its input layer stores.
package struct DlibNetworkModel: Sendable {
    /// The network: input [1,rows,columns,3] (red, green, blue), output [1,outputs].
    package var graph: GraphDescription
    /// Mean red, green and blue: the network's input is (pixel value 0...255 - mean) / 256.
    package var inputMeans: [Float]
    /// Input rows (the face chip's height).
    package var inputRows: Int
    /// Input columns (the face chip's width).
    package var inputColumns: Int
}

/// Reads networks saved by dlib's `serialize` (its `.dat` files) into a `GraphDescription`.
///
/// A dlib file stores layer parameters, not the network type, so each network this reader knows
/// has a layout (`DlibLayout`) that the file must follow record by record. Every read is
/// bounds-checked: a truncated or damaged file throws a one-line `NeuralRuntimeError` naming it.
package enum DlibReader {
    /// dlib's face-recognition ResNet (`dlib_face_recognition_resnet_model_v1.dat`): a 150x150
    /// aligned face chip to a 128-d descriptor.
    package static func faceRecognitionResNet(contentsOf path: String) throws -> DlibNetworkModel {
        let file = try ModelFileBytes.read(path)
        return try faceRecognitionResNet(bytes: file.bytes, name: file.name)
    }

    /// The same from memory; `name` appears in error messages.
    package static func faceRecognitionResNet(bytes: [UInt8], name: String) throws -> DlibNetworkModel {
        try faceRecognitionResNet(bytes: ModelBytes(bytes), name: name)
    }

    /// The same from a file's bytes (mapped).
    static func faceRecognitionResNet(bytes: ModelBytes, name: String) throws -> DlibNetworkModel {
        let layout = DlibLayout.faceRecognitionResNet
        let file: DlibModelFile
        do {
            file = try DlibModelFile(bytes: bytes, layout: layout)
        } catch let error as DlibFormatError {
            throw NeuralRuntimeError.malformed(model: name, reason: error.description)
        }
        var builder = DlibGraphBuilder(file: file, layout: layout, name: name)
        return DlibNetworkModel(graph: try builder.build(), inputMeans: file.inputMeans, inputRows: file.inputRows,
                                inputColumns: file.inputColumns)
    }
}
