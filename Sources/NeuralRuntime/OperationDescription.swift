/// One operation: what it computes and which tensors it reads and writes.
public struct OperationDescription: Sendable {
    /// The computation and its parameters.
    public var kind: OperationKind
    /// Input tensor indices (see each kind for the order); -1 marks an absent optional input.
    public var inputs: [Int]
    /// Output tensor indices.
    public var outputs: [Int]

    /// Creates an operation.
    public init(kind: OperationKind, inputs: [Int], outputs: [Int]) {
        self.kind = kind
        self.inputs = inputs
        self.outputs = outputs
    }
}
