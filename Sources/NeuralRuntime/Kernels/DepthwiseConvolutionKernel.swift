/// DEPTHWISE_CONV_2D over NHWC float32. Weights are packed once as [KH*KW][paddedC]; for a
/// multiplier of 1 each output pixel accumulates its valid taps eight channels at a time.
struct DepthwiseConvolutionKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    /// [KH*KW][paddedOut], zero-padded.
    let weights: UnsafePointer<Float>
    let bias: UnsafePointer<Float>
    let batch: Int, inH: Int, inW: Int, inC: Int
    let outH: Int, outW: Int, outC: Int, paddedOut: Int
    let kernelH: Int, kernelW: Int, multiplier: Int
    let parameters: ConvolutionParameters
    let clamp: ClampRange

    /// Packs `filter` ([1][KH][KW][C*multiplier]) and `biasValues` into `storage`.
    init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int], outputShape: [Int],
         filter: [Float], filterShape: [Int], biasValues: [Float]?, multiplier: Int,
         parameters: ConvolutionParameters, storage: FloatStorage) {
        self.input = input
        self.output = output
        batch = inputShape[0]; inH = inputShape[1]; inW = inputShape[2]; inC = inputShape[3]
        outH = outputShape[1]; outW = outputShape[2]; outC = outputShape[3]
        kernelH = filterShape[1]; kernelW = filterShape[2]
        self.multiplier = multiplier
        paddedOut = (outC + 7) / 8 * 8
        let packed = storage.allocate(kernelH * kernelW * paddedOut)
        for tap in 0..<(kernelH * kernelW) {
            for c in 0..<outC { packed[tap * paddedOut + c] = filter[tap * outC + c] }
        }
        weights = UnsafePointer(packed)
        let biasBuffer = storage.allocate(paddedOut)
        if let biasValues { for c in 0..<outC { biasBuffer[c] = biasValues[c] } }
        bias = UnsafePointer(biasBuffer)
        self.parameters = parameters
        clamp = ClampRange(parameters.activation)
    }

    func run() {
        let sh = parameters.strideH, sw = parameters.strideW
        let dh = parameters.dilationH, dw = parameters.dilationW
        let vectorEnd = multiplier == 1 ? outC / 8 * 8 : 0
        for n in 0..<batch {
            let image = input + n * inH * inW * inC
            for oy in 0..<outH {
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
