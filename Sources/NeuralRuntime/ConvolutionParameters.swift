/// Parameters of a 2-D convolution, depthwise or not.
package struct ConvolutionParameters: Sendable, Equatable {
    /// Vertical stride.
    package var strideH: Int
    /// Horizontal stride.
    package var strideW: Int
    /// Vertical dilation.
    package var dilationH: Int
    /// Horizontal dilation.
    package var dilationW: Int
    /// Zero padding.
    package var padding: SpatialPadding
    /// Fused activation.
    package var activation: Activation

    /// Creates convolution parameters.
    package init(strideH: Int = 1, strideW: Int = 1, dilationH: Int = 1, dilationW: Int = 1,
                padding: SpatialPadding = .zero, activation: Activation = .none) {
        self.strideH = strideH
        self.strideW = strideW
        self.dilationH = dilationH
        self.dilationW = dilationW
        self.padding = padding
        self.activation = activation
    }
}
