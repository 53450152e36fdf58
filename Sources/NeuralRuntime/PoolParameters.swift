/// Parameters of a pooling window.
public struct PoolParameters: Sendable, Equatable {
    /// Window height.
    public var filterH: Int
    /// Window width.
    public var filterW: Int
    /// Vertical stride.
    public var strideH: Int
    /// Horizontal stride.
    public var strideW: Int
    /// Padding (padded cells never win the maximum).
    public var padding: SpatialPadding
    /// Fused activation.
    public var activation: Activation

    /// Creates pooling parameters.
    public init(filterH: Int, filterW: Int, strideH: Int, strideW: Int, padding: SpatialPadding = .zero,
                activation: Activation = .none) {
        self.filterH = filterH
        self.filterW = filterW
        self.strideH = strideH
        self.strideW = strideW
        self.padding = padding
        self.activation = activation
    }
}
