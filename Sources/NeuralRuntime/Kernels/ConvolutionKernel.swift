import NeuralKernels

/// CONV_2D over NHWC float32 as an implicit GEMM in NeuralKernels: weights packed once at load
/// into the micro-kernel's panels (bias in front), bias, a fused residual add, the activation and a
/// fused PReLU applied in the store, each
/// tile of output pixels reading its taps through pointers (padding reads a zero row), so neither
/// 1x1 nor KxK convolutions copy their input.
struct ConvolutionKernel {
    private(set) var input: UnsafePointer<Float>
    private(set) var output: UnsafeMutablePointer<Float>
    let packed: UnsafePointer<Float>
    /// Zeros standing in for taps (or kernel rows) in the padding.
    let zero: UnsafePointer<Float>
    private(set) var shape: nk_conv
    /// Added to the result before the activation (a residual ADD fused by `GraphOptimizer`), or nil.
    let residual: UnsafePointer<Float>?
    /// Per-channel PReLU slopes applied after the activation (a fused PRELU), or nil.
    let slope: UnsafePointer<Float>?
    let path: KernelPath
    let pixels: Int
    var kernelH: Int { Int(shape.kernel_h) }
    var kernelW: Int { Int(shape.kernel_w) }

    /// Takes `filter` ([Cout][KH][KW][Cin]) and `biasValues` packed from `weights` (under `step`),
    /// packing them there unless a network of another input size already did.
    init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int], outputShape: [Int],
         filter: [Float], filterShape: [Int], biasValues: [Float]?, parameters: ConvolutionParameters,
         storage: FloatStorage, weights: PackedWeights, step: Int, path: KernelPath,
         residual: UnsafePointer<Float>? = nil, slopeValues: [Float]? = nil) {
        self.input = input
        self.output = output
        self.residual = residual
        let outC = outputShape[3]
        slope = slopeValues.map { storage.paddedCopy($0, count: outC, paddedCount: (outC + 31) / 32 * 32) }
        self.path = path
        let clamp = ClampRange(parameters.activation)
        var shape = nk_conv()
        (shape.batch, shape.in_h, shape.in_w, shape.in_c) =
            (Int32(inputShape[0]), Int32(inputShape[1]), Int32(inputShape[2]), Int32(inputShape[3]))
        (shape.out_h, shape.out_w, shape.out_c) = (Int32(outputShape[1]), Int32(outputShape[2]), Int32(outputShape[3]))
        (shape.kernel_h, shape.kernel_w) = (Int32(filterShape[1]), Int32(filterShape[2]))
        (shape.stride_h, shape.stride_w) = (Int32(parameters.strideH), Int32(parameters.strideW))
        (shape.dilation_h, shape.dilation_w) = (Int32(parameters.dilationH), Int32(parameters.dilationW))
        (shape.pad_top, shape.pad_left) = (Int32(parameters.padding.top), Int32(parameters.padding.left))
        (shape.lower, shape.upper) = (clamp.lower, clamp.upper)
        self.shape = shape
        pixels = outputShape[0] * outputShape[1] * outputShape[2]
        packed = weights.weights(step: step, count: nk_conv_packed_count(path.isa, &shape)) { [shape] packed in
            var shape = shape
            filter.withUnsafeBufferPointer { filter in
                if let bias = biasValues {
                    bias.withUnsafeBufferPointer { nk_conv_pack(path.isa, &shape, filter.baseAddress, $0.baseAddress, packed) }
                } else {
                    nk_conv_pack(path.isa, &shape, filter.baseAddress, nil, packed)
                }
            }
        }
        zero = UnsafePointer(storage.allocate(filterShape[2] * inputShape[3] + 64))
    }

    /// This convolution reading its input from a ring of `rows` rows at `input` (batch 1).
    func readingRing(_ input: UnsafePointer<Float>, rows: Int) -> ConvolutionKernel {
        var copy = self
        copy.input = input
        copy.shape.in_ring = Int32(rows)
        return copy
    }

    /// This convolution writing its output to a ring of `rows` rows at `output` (batch 1).
    func writingRing(_ output: UnsafeMutablePointer<Float>, rows: Int) -> ConvolutionKernel {
        var copy = self
        copy.output = output
        copy.shape.out_ring = Int32(rows)
        return copy
    }

    func run() { run(part: 0, of: 1) }

    /// Computes share `part` of `parts` of the output pixels (whole micro-kernel tiles), so that
    /// workers can split one convolution without touching the same memory.
    func run(part: Int, of parts: Int) {
        run(pixels: WorkShare.range(part: part, of: parts, total: pixels, multiple: Int(nk_conv_pixel_block(path.isa))))
    }

    /// Computes output rows `rows` (a batch of one; `RowStripChain`).
    func run(rows: Range<Int>) {
        let width = Int(shape.out_w)
        run(pixels: rows.lowerBound * width..<rows.upperBound * width)
    }

    private func run(pixels range: Range<Int>) {
        guard !range.isEmpty else { return }
        withUnsafePointer(to: shape) { shape in
            nk_conv_run(path.isa, shape, packed, input, output, zero, residual, slope, range.lowerBound,
                        range.upperBound)
        }
    }
}
