/// What an operation computes. Tensor layouts are NHWC; the input order is given per case.
package enum OperationKind: Sendable, Equatable {
    /// Inputs: data [N,H,W,Cin], filter [Cout,KH,KW,Cin] (constant), optional bias [Cout] (constant).
    case conv2D(ConvolutionParameters)
    /// Inputs: data [N,H,W,C], filter [1,KH,KW,C*multiplier] (constant), optional bias (constant).
    case depthwiseConv2D(ConvolutionParameters, depthMultiplier: Int)
    /// Inputs: a, b (same shape, or b broadcast from a suffix such as [C] or [1]).
    case add(Activation)
    /// Inputs: data.
    case activation(Activation)
    /// Inputs: data, slope (same shape, or broadcast from a suffix such as [1,1,C]).
    case prelu
    /// Inputs: data.
    case maxPool2D(PoolParameters)
    /// Inputs: data; zero padding per dimension as (before, after).
    case pad([PadAmount])
    /// Inputs: data; output takes `shape` (one entry may be -1).
    case reshape([Int])
    /// Inputs: two or more tensors joined along `axis` (negative counts from the end).
    case concatenation(axis: Int, activation: Activation)
    /// Inputs: data [N,H,W,C]; output [N,height,width,C].
    case resizeBilinear(height: Int, width: Int, alignCorners: Bool, halfPixelCenters: Bool)
    /// Inputs: data [N,H,W,Cin], filter [Cout,KH,KW,Cin] (constant), optional bias [Cout] (constant);
    /// output [N,(H-1)*strideH+KH-top-bottom,(W-1)*strideW+KW-left-right,Cout]. Dilation must be 1.
    case transposeConv2D(ConvolutionParameters)
    /// Inputs: data; 1 / (1 + exp(-x)) element-wise.
    case sigmoid
    /// Inputs: data [N,H,W,C]; the mean of each window, cells outside the input not counted.
    case averagePool2D(PoolParameters)
    /// Inputs: data [N,...] (each batch entry flattened to K values), weights [M,K] (constant),
    /// optional bias [M] (constant); output [N,M].
    case fullyConnected(Activation)
}
