import NeuralKernels

/// DEPTHWISE_CONV_2D over NHWC float32. A multiplier of 1 (every model here) runs in NeuralKernels
/// (per output row and channel vector, the 3x3 weights held in registers); other multipliers run
/// the general loop below on weights packed as [KH*KW][paddedC].
struct DepthwiseConvolutionKernel {
    private(set) var input: UnsafePointer<Float>
    private(set) var output: UnsafeMutablePointer<Float>
    /// [KH*KW][paddedOut], zero-padded.
    let weights: UnsafePointer<Float>
    let bias: UnsafePointer<Float>
    let batch: Int, inH: Int, inW: Int, inC: Int
    let outH: Int, outW: Int, outC: Int, paddedOut: Int
    let kernelH: Int, kernelW: Int, multiplier: Int
    let parameters: ConvolutionParameters
    let clamp: ClampRange
    /// Zeros standing in for input rows above or below the image.
    let zeroRow: UnsafePointer<Float>
    /// The C kernel's shape and packed bias + weights (multiplier 1), else nil.
    private(set) var packedC: (shape: nk_depthwise, weights: UnsafePointer<Float>)?
    let path: KernelPath

    /// Packs `filter` ([1][KH][KW][C*multiplier]) and `biasValues` once per step into `shared`
    /// (packing depends on neither the input's size nor the batch, so networks of one graph
    /// planned for other sizes share them); the zero row, which depends on the width, goes in `storage`.
    init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int], outputShape: [Int],
         filter: [Float], filterShape: [Int], biasValues: [Float]?, multiplier: Int,
         parameters: ConvolutionParameters, storage: FloatStorage, weights shared: PackedWeights, step: Int,
         path: KernelPath) {
        self.input = input
        self.output = output
        batch = inputShape[0]; inH = inputShape[1]; inW = inputShape[2]; inC = inputShape[3]
        outH = outputShape[1]; outW = outputShape[2]; outC = outputShape[3]
        kernelH = filterShape[1]; kernelW = filterShape[2]
        self.multiplier = multiplier
        paddedOut = (outC + 7) / 8 * 8
        self.parameters = parameters
        clamp = ClampRange(parameters.activation)
        zeroRow = UnsafePointer(storage.allocate(inW * inC + 64))
        self.path = path
        var shape = nk_depthwise()
        (shape.batch, shape.in_h, shape.in_w, shape.in_c) = (Int32(batch), Int32(inH), Int32(inW), Int32(inC))
        (shape.out_h, shape.out_w, shape.out_c) = (Int32(outH), Int32(outW), Int32(outC))
        (shape.kernel_h, shape.kernel_w) = (Int32(kernelH), Int32(kernelW))
        (shape.stride_h, shape.stride_w) = (Int32(parameters.strideH), Int32(parameters.strideW))
        (shape.dilation_h, shape.dilation_w) = (Int32(parameters.dilationH), Int32(parameters.dilationW))
        (shape.pad_top, shape.pad_left) = (Int32(parameters.padding.top), Int32(parameters.padding.left))
        (shape.lower, shape.upper) = (clamp.lower, clamp.upper)
        // One buffer per step: the C kernel's packed bias + weights (multiplier 1), then the
        // general loop's weights [KH*KW][paddedOut] and bias, each part 64-byte aligned.
        func aligned(_ count: Int) -> Int { (count + 15) / 16 * 16 }
        let cCount = multiplier == 1 ? aligned(nk_depthwise_packed_count(path.isa, &shape)) : 0
        let taps = kernelH * kernelW, outC = outC, paddedOut = paddedOut
        let generalCount = aligned(taps * paddedOut)
        let packed = shared.weights(step: step, count: cCount + generalCount + paddedOut) { [shape] buffer in
            if cCount > 0 {
                withUnsafePointer(to: shape) { shape in
                    filter.withUnsafeBufferPointer { filter in
                        if let bias = biasValues {
                            bias.withUnsafeBufferPointer { nk_depthwise_pack(path.isa, shape, filter.baseAddress, $0.baseAddress, buffer) }
                        } else {
                            nk_depthwise_pack(path.isa, shape, filter.baseAddress, nil, buffer)
                        }
                    }
                }
            }
            // The buffer comes zeroed: padding stays 0.
            let general = buffer + cCount, bias = general + generalCount
            for tap in 0..<taps {
                for c in 0..<outC { general[tap * paddedOut + c] = filter[tap * outC + c] }
            }
            if let biasValues { for c in 0..<min(outC, biasValues.count) { bias[c] = biasValues[c] } }
        }
        weights = packed + cCount
        bias = packed + cCount + generalCount
        packedC = multiplier == 1 ? (shape, packed) : nil
    }

    /// This convolution reading its input from a ring of `rows` rows at `input` (batch 1; the C
    /// kernel only, nil for other multipliers).
    func readingRing(_ input: UnsafePointer<Float>, rows: Int) -> DepthwiseConvolutionKernel? {
        guard packedC != nil else { return nil }
        var copy = self
        copy.input = input
        copy.packedC?.shape.in_ring = Int32(rows)
        return copy
    }

    /// This convolution writing its output to a ring of `rows` rows at `output` (batch 1; the C
    /// kernel only).
    func writingRing(_ output: UnsafeMutablePointer<Float>, rows: Int) -> DepthwiseConvolutionKernel? {
        guard packedC != nil else { return nil }
        var copy = self
        copy.output = output
        copy.packedC?.shape.out_ring = Int32(rows)
        return copy
    }

    func run() { run(part: 0, of: 1) }

    /// Computes the output rows of share `part` of `parts` (workers split one convolution by rows).
    func run(part: Int, of parts: Int) {
        run(rows: WorkShare.range(part: part, of: parts, total: batch * outH))
    }

    /// Computes output rows `rows` (over batch and height).
    func run(rows: Range<Int>) {
        if let packed = packedC {
            guard !rows.isEmpty else { return }
            withUnsafePointer(to: packed.shape) { shape in
                nk_depthwise_run(path.isa, shape, packed.weights, input, output, zeroRow, rows.lowerBound, rows.upperBound)
            }
        } else {
            runGeneral(rows: rows)
        }
    }

    /// Any kernel size, dilation and multiplier.
    private func runGeneral(rows: Range<Int>) {
        let sh = parameters.strideH, sw = parameters.strideW
        let dh = parameters.dilationH, dw = parameters.dilationW
        let vectorEnd = multiplier == 1 ? outC / 8 * 8 : 0
        for n in 0..<batch {
            let image = input + n * inH * inW * inC
            for oy in 0..<outH where rows.contains(n * outH + oy) {
                let iy0 = oy * sh - parameters.padding.top
                // The taps that fall inside the image, computed once per row and column.
                let kyStart = firstValidTap(origin: iy0, dilation: dh), kyEnd = endValidTap(origin: iy0, dilation: dh,
                                                                                          size: inH, count: kernelH)
                for ox in 0..<outW {
                    let ix0 = ox * sw - parameters.padding.left
                    let kxStart = firstValidTap(origin: ix0, dilation: dw)
                    let kxEnd = endValidTap(origin: ix0, dilation: dw, size: inW, count: kernelW)
                    let destination = output + ((n * outH + oy) * outW + ox) * outC
                    var c = 0
                    while c < vectorEnd {
                        var acc = load8(bias + c)
                        var ky = kyStart
                        while ky < kyEnd {
                            let row = image + ((iy0 + ky * dh) * inW) * inC + c
                            let weightRow = weights + ky * kernelW * paddedOut + c
                            var kx = kxStart
                            while kx < kxEnd {
                                acc = acc.addingProduct(load8(row + (ix0 + kx * dw) * inC),
                                                        load8(weightRow + kx * paddedOut))
                                kx += 1
                            }
                            ky += 1
                        }
                        store8(clamp.apply(acc), destination + c)
                        c += 8
                    }
                    while c < outC {
                        var acc = bias[c]
                        let ic = c / multiplier
                        for ky in kyStart..<max(kyStart, kyEnd) {
                            let row = image + ((iy0 + ky * dh) * inW) * inC + ic
                            for kx in kxStart..<max(kxStart, kxEnd) {
                                acc += row[(ix0 + kx * dw) * inC] * weights[(ky * kernelW + kx) * paddedOut + c]
                            }
                        }
                        destination[c] = clamp.apply(acc)
                        c += 1
                    }
                }
            }
        }
    }

    /// The first tap index whose input coordinate is >= 0.
    @inline(__always)
    private func firstValidTap(origin: Int, dilation: Int) -> Int {
        origin >= 0 ? 0 : (-origin + dilation - 1) / dilation
    }

    /// One past the last tap index whose input coordinate is < size.
    @inline(__always)
    private func endValidTap(origin: Int, dilation: Int, size: Int, count: Int) -> Int {
        let remaining = size - origin
        if remaining <= 0 { return 0 }
        return min(count, (remaining + dilation - 1) / dilation)
    }
}
