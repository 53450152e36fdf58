/// A network as a front-end hands it to the runtime: tensors, operations in execution order,
/// and which tensors are the inputs and outputs.
///
/// Front-ends (the TFLite reader, later an ONNX reader) translate their file format into this
/// description: float32 NHWC tensors, constants already converted to `Float`, padding made
/// explicit. `NeuralNetwork` then infers shapes, plans memory and packs weights once.
public struct GraphDescription: Sendable {
    /// Every tensor; operations refer to them by index.
    public var tensors: [TensorDescription]
    /// The operations, in an order where every input is produced before it is used.
    public var operations: [OperationDescription]
    /// Indices of the tensors the caller fills before each run.
    public var inputs: [Int]
    /// Indices of the tensors the caller reads after each run.
    public var outputs: [Int]
    /// A name for error messages (usually the model file's name).
    public var name: String

    /// Creates a description.
    public init(tensors: [TensorDescription], operations: [OperationDescription], inputs: [Int], outputs: [Int],
                name: String) {
        self.tensors = tensors
        self.operations = operations
        self.inputs = inputs
        self.outputs = outputs
        self.name = name
    }
}

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

/// An activation applied to an operation's result.
public enum Activation: Sendable, Equatable {
    /// Identity.
    case none
    /// max(0, x).
    case relu
    /// min(max(0, x), 6).
    case relu6
    /// min(max(-1, x), 1).
    case reluMinus1To1
}

/// Explicit zero padding around the spatial axes of an NHWC tensor.
public struct SpatialPadding: Sendable, Equatable {
    /// Rows added above.
    public var top: Int
    /// Columns added on the left.
    public var left: Int
    /// Rows added below.
    public var bottom: Int
    /// Columns added on the right.
    public var right: Int

    /// Creates a padding.
    public init(top: Int, left: Int, bottom: Int, right: Int) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No padding.
    public static let zero = SpatialPadding(top: 0, left: 0, bottom: 0, right: 0)

    /// TFLite/TensorFlow "SAME" padding for one input size, kernel size, stride and dilation;
    /// "VALID" is `.zero`.
    public static func same(inputHeight: Int, inputWidth: Int, kernelHeight: Int, kernelWidth: Int,
                            strideH: Int, strideW: Int, dilationH: Int = 1, dilationW: Int = 1) -> SpatialPadding {
        func axis(_ size: Int, _ kernel: Int, _ stride: Int, _ dilation: Int) -> (Int, Int) {
            let outSize = (size + stride - 1) / stride
            let effective = (kernel - 1) * dilation + 1
            let total = max(0, (outSize - 1) * stride + effective - size)
            return (total / 2, total - total / 2)
        }
        let (top, bottom) = axis(inputHeight, kernelHeight, max(1, strideH), max(1, dilationH))
        let (left, right) = axis(inputWidth, kernelWidth, max(1, strideW), max(1, dilationW))
        return SpatialPadding(top: top, left: left, bottom: bottom, right: right)
    }
}

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

/// What an operation computes. Tensor layouts are NHWC; the input order is given per case.
public enum OperationKind: Sendable, Equatable {
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
}

/// Padding of one dimension, for `OperationKind.pad`.
public struct PadAmount: Sendable, Equatable {
    /// Elements added before.
    public var before: Int
    /// Elements added after.
    public var after: Int

    /// Creates a pad amount.
    public init(before: Int, after: Int) {
        self.before = before
        self.after = after
    }
}
