/// The TFLite builtin operator codes and enum values the reader understands (schema v3).
enum TFLiteBuiltin {
    static let add = 0
    static let concatenation = 2
    static let conv2D = 3
    static let depthwiseConv2D = 4
    static let dequantize = 6
    static let maxPool2D = 17
    static let relu = 19
    static let reluMinus1To1 = 20
    static let relu6 = 21
    static let reshape = 22
    static let resizeBilinear = 23
    static let pad = 34
    static let prelu = 54

    /// `TensorType` values.
    static let float32 = 0
    static let float16 = 1
    static let int32 = 2

    /// `Padding` values.
    static let paddingSame = 0
    static let paddingValid = 1
}
