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
        bias = storage.paddedCopy(biasValues, count: outC, paddedCount: paddedOut)
        self.parameters = parameters
        clamp = ClampRange(parameters.activation)
    }

    func run() { run(part: 0, of: 1) }

    /// Computes share `part` of `parts` of the output (pixel blocks or output rows), so that
    /// workers can split one convolution without touching the same memory.
    func run(part: Int, of parts: Int) {
        if kernelH == 1, kernelW == 1, parameters.strideH == 1, parameters.strideW == 1,
           parameters.padding == .zero, outH == inH, outW == inW {
            pointwise(pixels: WorkShare.range(part: part, of: parts, total: batch * inH * inW, multiple: 4))
        } else {
            direct(rows: WorkShare.range(part: part, of: parts, total: batch * outH))
        }
    }

    /// 1x1 convolution as [pixels x Cin] * [Cin x Cout], in tiles of 4 pixels x 16 channels.
    private func pointwise(pixels range: Range<Int>) {
        let pixels = range.upperBound
        var p = range.lowerBound
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

    /// Four pixels x 16 channels of the 1x1 product: the KxK tile with one kernel row.
    @inline(__always)
    private func tile4x16(pixel p: Int, channel co: Int) {
        rowTile4x16(origin: input + p * inC, pixelStride: inC, kyRange: 0..<1, rowTaps: inC, pixel: p, channel: co)
    }

    /// Four neighbouring output pixels x 16 channels of a KxK convolution: for each valid kernel
    /// row, the row's taps are one contiguous run of `rowTaps` floats per pixel.
    @inline(__always)
    private func rowTile4x16(origin: UnsafePointer<Float>, pixelStride: Int, kyRange: Range<Int>, rowTaps: Int,
                             pixel p: Int, channel co: Int) {
        let b0 = load8(bias + co), b1 = load8(bias + co + 8)
        var a00 = b0, a01 = b1, a10 = b0, a11 = b1, a20 = b0, a21 = b1, a30 = b0, a31 = b1
        for ky in kyRange {
            let x0 = origin + ky * inW * inC, x1 = x0 + pixelStride, x2 = x1 + pixelStride, x3 = x2 + pixelStride
            var w = weights + ky * rowTaps * paddedOut + co
            for k in 0..<rowTaps {
                let w0 = load8(w), w1 = load8(w + 8)
                let v0 = Float8(repeating: x0[k]), v1 = Float8(repeating: x1[k])
                let v2 = Float8(repeating: x2[k]), v3 = Float8(repeating: x3[k])
                a00 = a00.addingProduct(v0, w0); a01 = a01.addingProduct(v0, w1)
                a10 = a10.addingProduct(v1, w0); a11 = a11.addingProduct(v1, w1)
                a20 = a20.addingProduct(v2, w0); a21 = a21.addingProduct(v2, w1)
                a30 = a30.addingProduct(v3, w0); a31 = a31.addingProduct(v3, w1)
                w += paddedOut
            }
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
    /// Without dilation, the taps of one kernel row are contiguous in both the input row and the
    /// packed weights, so runs of 4 interior pixels go through the same 4x16 tile as 1x1 convolutions.
    private func direct(rows: Range<Int>) {
        let sh = parameters.strideH, sw = parameters.strideW
        let dh = parameters.dilationH, dw = parameters.dilationW
        let tapStride = inC * paddedOut
        let padLeft = parameters.padding.left
        // Output columns whose kernel lies inside the image horizontally.
        let interiorStart = min(outW, (padLeft + sw - 1) / sw)
        let interiorEnd = dw == 1 ? max(interiorStart, min(outW, (inW - kernelW + padLeft) / sw + 1)) : interiorStart
        let rowTaps = kernelW * inC
        for n in 0..<batch {
            let image = input + n * inH * inW * inC
            for oy in 0..<outH where rows.contains(n * outH + oy) {
                let iy0 = oy * sh - parameters.padding.top
                var tiled = interiorStart
                if dh == 1 {
                    let kyStart = max(0, -iy0), kyEnd = min(kernelH, inH - iy0)
                    while tiled + 4 <= interiorEnd {
                        let p = (n * outH + oy) * outW + tiled
                        let origin = image + (iy0 * inW + tiled * sw - padLeft) * inC
                        var co = 0
                        while co < paddedOut {
                            if co + 16 <= paddedOut {
                                rowTile4x16(origin: origin, pixelStride: sw * inC, kyRange: kyStart..<kyEnd,
                                            rowTaps: rowTaps, pixel: p, channel: co)
                                co += 16
                            } else {
                                for r in 0..<4 {
                                    var acc = load8(bias + co)
                                    for ky in kyStart..<max(kyStart, kyEnd) {
                                        let source = origin + (ky * inW + r * sw) * inC
                                        var w = weights + ky * kernelW * tapStride + co
                                        for k in 0..<rowTaps {
                                            acc = acc.addingProduct(Float8(repeating: source[k]), load8(w))
                                            w += paddedOut
                                        }
                                    }
                                    store8Clamped(acc, pixel: p + r, channel: co)
                                }
                                co += 8
                            }
                        }
                        tiled += 4
                    }
                }
                for ox in 0..<outW where ox < interiorStart || ox >= tiled {
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
