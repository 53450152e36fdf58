/// A network as a front-end hands it to the runtime: tensors, operations in execution order,
/// and which tensors are the inputs and outputs.
///
/// Front-ends (the TFLite reader, later an ONNX reader) translate their file format into this
/// description: float32 NHWC tensors, constants already converted to `Float`, padding made
/// explicit. `NeuralNetwork` then infers shapes, plans memory and packs weights once.
package struct GraphDescription: Sendable {
    /// Every tensor; operations refer to them by index.
    package var tensors: [TensorDescription]
    /// The operations, in an order where every input is produced before it is used.
    package var operations: [OperationDescription]
    /// Indices of the tensors the caller fills before each run.
    package var inputs: [Int]
    /// Indices of the tensors the caller reads after each run.
    package var outputs: [Int]
    /// A name for error messages (usually the model file's name).
    package var name: String

    /// Creates a description.
    package init(tensors: [TensorDescription], operations: [OperationDescription], inputs: [Int], outputs: [Int],
                name: String) {
        self.tensors = tensors
        self.operations = operations
        self.inputs = inputs
        self.outputs = outputs
        self.name = name
    }
}
