/// One float32 tensor of a graph.
public struct TensorDescription: Sendable {
    /// The tensor's name in the model file.
    public var name: String
    /// The shape (NHWC for images); for non-constant tensors other than inputs it is checked
    /// against the inferred shape, an empty shape meaning "not declared".
    public var shape: [Int]
    /// The values of a constant (weights, biases, slopes), row-major; nil for activations.
    public var constant: [Float]?

    /// Creates a tensor description.
    public init(name: String, shape: [Int], constant: [Float]? = nil) {
        self.name = name
        self.shape = shape
        self.constant = constant
    }

    /// Number of elements of `shape` (0 when the shape is invalid).
    public var elementCount: Int { ShapeArithmetic.elementCount(shape) ?? 0 }
}
