/// Parameters of a pooling window.
package struct PoolParameters: Sendable, Equatable {
    /// Window height.
    package var filterH: Int
    /// Window width.
    package var filterW: Int
    /// Vertical stride.
    package var strideH: Int
    /// Horizontal stride.
    package var strideW: Int
    /// Padding (padded cells never win the maximum).
    package var padding: SpatialPadding
    /// Fused activation.
    package var activation: Activation

    /// Creates pooling parameters.
    package init(filterH: Int, filterW: Int, strideH: Int, strideW: Int, padding: SpatialPadding = .zero,
                activation: Activation = .none) {
        self.filterH = filterH
        self.filterW = filterW
        self.strideH = strideH
        self.strideW = strideW
        self.padding = padding
        self.activation = activation
    }
}
