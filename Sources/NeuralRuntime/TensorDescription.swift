/// One float32 tensor of a graph.
package struct TensorDescription: Sendable {
    /// The tensor's name in the model file.
    package var name: String
    /// The shape (NHWC for images); for non-constant tensors other than inputs it is checked
    /// against the inferred shape, an empty shape meaning "not declared".
    package var shape: [Int]
    /// The values of a constant (weights, biases, slopes), row-major; nil for activations.
    package var constant: [Float]?

    /// Creates a tensor description.
    package init(name: String, shape: [Int], constant: [Float]? = nil) {
        self.name = name
        self.shape = shape
        self.constant = constant
    }

    /// Number of elements of `shape` (0 when the shape is invalid).
    package var elementCount: Int { ShapeArithmetic.elementCount(shape) ?? 0 }
}
