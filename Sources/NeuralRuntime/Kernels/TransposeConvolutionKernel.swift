import NeuralKernels

/// Transposed convolution ("deconvolution") over NHWC float32. With the stride equal to the kernel
/// and no padding (CenterFace's upsampling), each output pixel takes one tap and every tap runs as a
/// 1x1 product in NeuralKernels; otherwise each output pixel is computed here from the input
/// pixels whose taps land on it. Weights are packed once as [KH*KW][Cin][paddedOut] so eight
/// output channels accumulate per vector.
struct TransposeConvolutionKernel {
    /// Tensor and filter sizes (NHWC data, [Cout][KH][KW][Cin] filter).
    struct Sizes {
        let batch: Int, inH: Int, inW: Int, inC: Int, outH: Int, outW: Int, outC: Int, kernelH: Int, kernelW: Int

        init(input: [Int], output: [Int], filter: [Int]) {
            (batch, inH, inW, inC) = (input[0], input[1], input[2], input[3])
            (outH, outW, outC) = (output[1], output[2], output[3])
            (kernelH, kernelW) = (filter[1], filter[2])
        }
    }

    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    /// [KH*KW][Cin][paddedOut], zero in the padding columns.
    let weights: UnsafePointer<Float>
    /// `paddedOut` entries, zero-padded.
    let bias: UnsafePointer<Float>
    let sizes: Sizes
    /// Output channels rounded up to the vector width.
    let paddedOut: Int
    let strideH: Int, strideW: Int, padTop: Int, padLeft: Int
    let clamp: ClampRange
    /// The NeuralKernels form (stride = kernel, no padding): shape, per-tap panels, bias padded to 32.
    let packedC: (shape: nk_conv, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>)?
    let path: KernelPath

    /// Packs `filter` ([Cout][KH][KW][Cin]) and `biasValues` into `storage`.
    init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int], outputShape: [Int],
         filter: [Float], filterShape: [Int], biasValues: [Float]?, parameters: ConvolutionParameters,
         storage: FloatStorage, path: KernelPath) {
        self.input = input
        self.output = output
        let sizes = Sizes(input: inputShape, output: outputShape, filter: filterShape)
        self.sizes = sizes
        paddedOut = (sizes.outC + 7) / 8 * 8
        let taps = sizes.kernelH * sizes.kernelW, inC = sizes.inC
        let packed = storage.allocate(taps * inC * paddedOut)
        for co in 0..<sizes.outC {
            for tap in 0..<taps {
                for ci in 0..<inC { packed[(tap * inC + ci) * paddedOut + co] = filter[(co * taps + tap) * inC + ci] }
            }
        }
        weights = UnsafePointer(packed)
        bias = storage.paddedCopy(biasValues, count: sizes.outC, paddedCount: paddedOut)
        (strideH, strideW) = (parameters.strideH, parameters.strideW)
        (padTop, padLeft) = (parameters.padding.top, parameters.padding.left)
        clamp = ClampRange(parameters.activation)
        self.path = path
        if parameters.strideH == sizes.kernelH, parameters.strideW == sizes.kernelW, parameters.padding == .zero,
           sizes.outH == sizes.inH * parameters.strideH, sizes.outW == sizes.inW * parameters.strideW {
            var shape = nk_conv()
            (shape.batch, shape.in_h, shape.in_w, shape.in_c) =
                (Int32(sizes.batch), Int32(sizes.inH), Int32(sizes.inW), Int32(sizes.inC))
            (shape.out_h, shape.out_w, shape.out_c) = (Int32(sizes.outH), Int32(sizes.outW), Int32(sizes.outC))
            (shape.kernel_h, shape.kernel_w) = (Int32(sizes.kernelH), Int32(sizes.kernelW))
            (shape.stride_h, shape.stride_w) = (Int32(parameters.strideH), Int32(parameters.strideW))
            (shape.dilation_h, shape.dilation_w) = (1, 1)
            (shape.lower, shape.upper) = (clamp.lower, clamp.upper)
            let packedWeights = storage.allocate(nk_deconv_packed_count(path.isa, &shape))
            filter.withUnsafeBufferPointer { nk_deconv_pack(path.isa, &shape, $0.baseAddress, packedWeights) }
            let paddedBias = storage.paddedCopy(biasValues, count: sizes.outC, paddedCount: (sizes.outC + 31) / 32 * 32)
            packedC = (shape, UnsafePointer(packedWeights), paddedBias)
        } else {
            packedC = nil
        }
    }

    func run() { run(part: 0, of: 1) }

    /// Computes the output rows of share `part` of `parts`. Each output pixel gathers the taps that
    /// land on it (input pixels where (o + pad - k) is a multiple of the stride) and is written once:
    /// no scatter, no read-modify-write, so workers can split the rows.
    func run(part: Int, of parts: Int) {
        if let packed = packedC {
            let rows = WorkShare.range(part: part, of: parts, total: sizes.batch * sizes.inH)
            guard !rows.isEmpty else { return }
            withUnsafePointer(to: packed.shape) { shape in
                nk_deconv_run(path.isa, shape, packed.weights, packed.bias, input, output, rows.lowerBound, rows.upperBound)
            }
            return
        }
        let (batch, inH, inW, inC) = (sizes.batch, sizes.inH, sizes.inW, sizes.inC)
        let (outH, outW, outC, kernelH, kernelW) = (sizes.outH, sizes.outW, sizes.outC, sizes.kernelH, sizes.kernelW)
        let rows = WorkShare.range(part: part, of: parts, total: batch * outH)
        // The taps landing on one output pixel, found once per pixel (not per channel block):
        // (input pixel offset, packed weight offset); at most ceil(KH/SH) x ceil(KW/SW) of them.
        let capacity = (kernelH + strideH - 1) / strideH * ((kernelW + strideW - 1) / strideW)
        withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: capacity) { taps in
            for row in rows {
                let n = row / outH, oy = row % outH
                for ox in 0..<outW {
                    var count = 0
                    // Taps in input-pixel order (kernel rows and columns descending), each tap's
                    // sum added to the bias in turn: the roundings of the scatter this replaced.
                    var ky = kernelH - 1 - ((kernelH - 1 - (oy + padTop) % strideH) % strideH + strideH) % strideH
                    while ky >= 0 {
                        let iy = (oy + padTop - ky) / strideH
                        if iy >= 0, iy < inH {
                            var kx = kernelW - 1 - ((kernelW - 1 - (ox + padLeft) % strideW) % strideW + strideW) % strideW
                            while kx >= 0 {
                                let ix = (ox + padLeft - kx) / strideW
                                if ix >= 0, ix < inW {
                                    taps[count] = (((n * inH + iy) * inW + ix) * inC, (ky * kernelW + kx) * inC * paddedOut)
                                    count += 1
                                }
                                kx -= strideW
                            }
                        }
                        ky -= strideH
                    }
                    let destination = output + (row * outW + ox) * outC
                    var co = 0
                    while co < paddedOut {
                        var acc = load8(bias + co)
                        for t in 0..<count {
                            let source = input + taps[t].0
                            var w = weights + taps[t].1 + co
                            var sum = Float8()
                            for ci in 0..<inC {
                                sum = sum.addingProduct(Float8(repeating: source[ci]), load8(w))
                                w += paddedOut
                            }
                            acc += sum
                        }
                        let value = clamp.apply(acc)
                        if co + 8 <= outC {
                            store8(value, destination + co)
                        } else {
                            storePartial(value, destination + co, count: outC - co)
                        }
                        co += 8
                    }
                }
            }
        }
    }
}
