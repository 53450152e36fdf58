/// A point in normalised coordinates (0...1 across the network input).
public struct Point2: Sendable, Equatable {
    /// Horizontal position.
    public var x: Double
    /// Vertical position.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
