/// CONV_2D over NHWC float32: a blocked matrix product for 1x1 stride-1 convolutions and a
/// direct loop (no im2col copy) for everything else. Weights are packed once at load as
/// [KH][KW][Cin][CoutPadded] so the inner loop reads output channels contiguously, eight at a time.
struct ConvolutionKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    /// Packed weights, [KH*KW*Cin][paddedOut], zero in the padding columns.
    let weights: UnsafePointer<Float>
    /// Bias, `paddedOut` entries, zero-padded.
    let bias: UnsafePointer<Float>
    let batch: Int, inH: Int, inW: Int, inC: Int
    let outH: Int, outW: Int, outC: Int, paddedOut: Int
    let kernelH: Int, kernelW: Int
    let parameters: ConvolutionParameters
    let clamp: ClampRange

    /// Packs `filter` ([Cout][KH][KW][Cin]) and `biasValues` into `storage`.
    init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int], outputShape: [Int],
         filter: [Float], filterShape: [Int], biasValues: [Float]?, parameters: ConvolutionParameters,
         storage: FloatStorage) {
        self.input = input
        self.output = output
        batch = inputShape[0]; inH = inputShape[1]; inW = inputShape[2]; inC = inputShape[3]
        outH = outputShape[1]; outW = outputShape[2]; outC = outputShape[3]
        kernelH = filterShape[1]; kernelW = filterShape[2]
        paddedOut = (outC + 7) / 8 * 8
        let taps = kernelH * kernelW * inC
        let packed = storage.allocate(taps * paddedOut)
        for co in 0..<outC {
            for tap in 0..<taps { packed[tap * paddedOut + co] = filter[co * taps + tap] }
        }
        weights = UnsafePointer(packed)
        let biasBuffer = storage.allocate(paddedOut)
        if let biasValues { for co in 0..<outC { biasBuffer[co] = biasValues[co] } }
        bias = UnsafePointer(biasBuffer)
        self.parameters = parameters
        clamp = ClampRange(parameters.activation)
    }

    func run() {
        if kernelH == 1, kernelW == 1, parameters.strideH == 1, parameters.strideW == 1,
           parameters.padding == .zero, outH == inH, outW == inW {
            pointwise()
        } else {
            direct()
        }
    }

    /// 1x1 convolution as [pixels x Cin] * [Cin x Cout], in tiles of 4 pixels x 16 channels.
    private func pointwise() {
        let pixels = batch * inH * inW
        var p = 0
        while p + 4 <= pixels {
            var co = 0
            while co + 16 <= paddedOut {
                tile4x16(pixel: p, channel: co)
                co += 16
            }
            if co < paddedOut {
                for r in 0..<4 { row1x8(source: input + (p + r) * inC, taps: inC, channel: co, pixel: p + r) }
            }
            p += 4
        }
        while p < pixels {
            var co = 0
            while co < paddedOut {
                row1x8(source: input + p * inC, taps: inC, channel: co, pixel: p)
                co += 8
            }
            p += 1
        }
    }

    @inline(__always)
    private func tile4x16(pixel p: Int, channel co: Int) {
        let b0 = load8(bias + co), b1 = load8(bias + co + 8)
        var a00 = b0, a01 = b1, a10 = b0, a11 = b1, a20 = b0, a21 = b1, a30 = b0, a31 = b1
        let x0 = input + p * inC, x1 = x0 + inC, x2 = x1 + inC, x3 = x2 + inC
        var w = weights + co
        for k in 0..<inC {
            let w0 = load8(w), w1 = load8(w + 8)
            let v0 = Float8(repeating: x0[k]), v1 = Float8(repeating: x1[k])
            let v2 = Float8(repeating: x2[k]), v3 = Float8(repeating: x3[k])
            a00 = a00.addingProduct(v0, w0); a01 = a01.addingProduct(v0, w1)
            a10 = a10.addingProduct(v1, w0); a11 = a11.addingProduct(v1, w1)
            a20 = a20.addingProduct(v2, w0); a21 = a21.addingProduct(v2, w1)
            a30 = a30.addingProduct(v3, w0); a31 = a31.addingProduct(v3, w1)
            w += paddedOut
        }
        store(a00, a01, pixel: p, channel: co)
        store(a10, a11, pixel: p + 1, channel: co)
        store(a20, a21, pixel: p + 2, channel: co)
        store(a30, a31, pixel: p + 3, channel: co)
    }

    /// One pixel, eight output channels, over `taps` contiguous inputs (1x1 case).
    @inline(__always)
    private func row1x8(source: UnsafePointer<Float>, taps: Int, channel co: Int, pixel p: Int) {
        var acc = load8(bias + co)
        var w = weights + co
        for k in 0..<taps {
            acc = acc.addingProduct(Float8(repeating: source[k]), load8(w))
            w += paddedOut
        }
        store8Clamped(acc, pixel: p, channel: co)
    }

    @inline(__always)
    private func store(_ low: Float8, _ high: Float8, pixel p: Int, channel co: Int) {
        store8Clamped(low, pixel: p, channel: co)
        store8Clamped(high, pixel: p, channel: co + 8)
    }

    @inline(__always)
    private func store8Clamped(_ value: Float8, pixel p: Int, channel co: Int) {
        let destination = output + p * outC + co
        let clamped = clamp.apply(value)
        if co + 8 <= outC {
            store8(clamped, destination)
        } else {
            storePartial(clamped, destination, count: outC - co)
        }
    }

    /// General convolution: for each output pixel, sum the valid taps directly from the input.
    private func direct() {
        let sh = parameters.strideH, sw = parameters.strideW
        let dh = parameters.dilationH, dw = parameters.dilationW
        let tapStride = inC * paddedOut
        for n in 0..<batch {
            let image = input + n * inH * inW * inC
            for oy in 0..<outH {
                let iy0 = oy * sh - parameters.padding.top
                for ox in 0..<outW {
                    let ix0 = ox * sw - parameters.padding.left
                    let p = (n * outH + oy) * outW + ox
                    var co = 0
                    while co < paddedOut {
                        let wide = co + 16 <= paddedOut
                        var acc0 = load8(bias + co)
                        var acc1 = wide ? load8(bias + co + 8) : Float8()
                        for ky in 0..<kernelH {
                            let iy = iy0 + ky * dh
                            if iy < 0 || iy >= inH { continue }
                            for kx in 0..<kernelW {
                                let ix = ix0 + kx * dw
                                if ix < 0 || ix >= inW { continue }
                                let source = image + (iy * inW + ix) * inC
                                var w = weights + (ky * kernelW + kx) * tapStride + co
                                if wide {
                                    for ci in 0..<inC {
                                        let v = Float8(repeating: source[ci])
                                        acc0 = acc0.addingProduct(v, load8(w))
                                        acc1 = acc1.addingProduct(v, load8(w + 8))
                                        w += paddedOut
                                    }
                                } else {
                                    for ci in 0..<inC {
                                        acc0 = acc0.addingProduct(Float8(repeating: source[ci]), load8(w))
                                        w += paddedOut
                                    }
                                }
                            }
                        }
                        store8Clamped(acc0, pixel: p, channel: co)
                        if wide { store8Clamped(acc1, pixel: p, channel: co + 8) }
                        co += wide ? 16 : 8
                    }
                }
            }
        }
    }
}
