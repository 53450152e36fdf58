/// Parameters of a 2-D convolution, depthwise or not.
public struct ConvolutionParameters: Sendable, Equatable {
    /// Vertical stride.
    public var strideH: Int
    /// Horizontal stride.
    public var strideW: Int
    /// Vertical dilation.
    public var dilationH: Int
    /// Horizontal dilation.
    public var dilationW: Int
    /// Zero padding.
    public var padding: SpatialPadding
    /// Fused activation.
    public var activation: Activation

    /// Creates convolution parameters.
    public init(strideH: Int = 1, strideW: Int = 1, dilationH: Int = 1, dilationW: Int = 1,
                padding: SpatialPadding = .zero, activation: Activation = .none) {
        self.strideH = strideH
        self.strideW = strideW
        self.dilationH = dilationH
        self.dilationW = dilationW
        self.padding = padding
        self.activation = activation
    }
}
