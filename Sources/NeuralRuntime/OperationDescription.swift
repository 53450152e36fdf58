/// One operation: what it computes and which tensors it reads and writes.
package struct OperationDescription: Sendable {
    /// The computation and its parameters.
    package var kind: OperationKind
    /// Input tensor indices (see each kind for the order); -1 marks an absent optional input.
    package var inputs: [Int]
    /// Output tensor indices.
    package var outputs: [Int]

    /// Creates an operation.
    package init(kind: OperationKind, inputs: [Int], outputs: [Int]) {
        self.kind = kind
        self.inputs = inputs
        self.outputs = outputs
    }
}
