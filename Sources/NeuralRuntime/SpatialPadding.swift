/// Explicit zero padding around the spatial axes of an NHWC tensor.
package struct SpatialPadding: Sendable, Equatable {
    /// Rows added above.
    package var top: Int
    /// Columns added on the left.
    package var left: Int
    /// Rows added below.
    package var bottom: Int
    /// Columns added on the right.
    package var right: Int

    /// Creates a padding.
    package init(top: Int, left: Int, bottom: Int, right: Int) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No padding.
    package static let zero = SpatialPadding(top: 0, left: 0, bottom: 0, right: 0)

    /// TFLite/TensorFlow "SAME" padding for one input size, kernel size, stride and dilation;
    /// "VALID" is `.zero`.
    package static func same(inputHeight: Int, inputWidth: Int, kernelHeight: Int, kernelWidth: Int,
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
