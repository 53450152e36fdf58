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
    /// Zeros standing in for input rows above or below the image (3x3 fast path).
    let zeroRow: UnsafePointer<Float>

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
        bias = storage.paddedCopy(biasValues, count: outC, paddedCount: paddedOut)
        self.parameters = parameters
        clamp = ClampRange(parameters.activation)
        zeroRow = UnsafePointer(storage.allocate(inW * inC + 16))
    }

    func run() { run(part: 0, of: 1) }

    /// Computes the output rows of share `part` of `parts` (workers split one convolution by rows).
    func run(part: Int, of parts: Int) {
        let rows = WorkShare.range(part: part, of: parts, total: batch * outH)
        if kernelH == 3, kernelW == 3, multiplier == 1, parameters.dilationH == 1, parameters.dilationW == 1 {
            run3x3(rows: rows)
        } else {
            runGeneral(rows: rows)
        }
    }

    /// 3x3, multiplier 1: per output row and block of 8 channels, the nine weight vectors stay in
    /// registers while the row is swept; rows outside the image read zeros. The last block may
    /// reach past the channel count: those lanes read neighbouring floats (memory is padded),
    /// meet zero weights and are never stored.
    private func run3x3(rows: Range<Int>) {
        let sh = parameters.strideH, sw = parameters.strideW
        let padTop = parameters.padding.top, padLeft = parameters.padding.left
        // Output columns whose three taps are all inside the image.
        let interiorStart = min(outW, (padLeft + sw - 1) / sw)
        let interiorEnd = max(interiorStart, min(outW, (inW - 3 + padLeft) / sw + 1))
        let rowLength = inW * inC
        for n in 0..<batch {
            let image = input + n * inH * rowLength
            for oy in 0..<outH where rows.contains(n * outH + oy) {
                let iy0 = oy * sh - padTop
                let row0 = iy0 >= 0 && iy0 < inH ? image + iy0 * rowLength : zeroRow
                let row1 = iy0 + 1 >= 0 && iy0 + 1 < inH ? image + (iy0 + 1) * rowLength : zeroRow
                let row2 = iy0 + 2 >= 0 && iy0 + 2 < inH ? image + (iy0 + 2) * rowLength : zeroRow
                let destinationRow = output + (n * outH + oy) * outW * outC
                var c = 0
                while c < outC {
                    let w = weights + c
                    let w00 = load8(w), w01 = load8(w + paddedOut), w02 = load8(w + 2 * paddedOut)
                    let w10 = load8(w + 3 * paddedOut), w11 = load8(w + 4 * paddedOut), w12 = load8(w + 5 * paddedOut)
                    let w20 = load8(w + 6 * paddedOut), w21 = load8(w + 7 * paddedOut), w22 = load8(w + 8 * paddedOut)
                    let b = load8(bias + c)
                    let partial = c + 8 > outC
                    for ox in interiorStart..<interiorEnd {
                        let at = (ox * sw - padLeft) * inC + c
                        let p0 = row0 + at, p1 = row1 + at, p2 = row2 + at
                        var acc = b.addingProduct(load8(p0), w00)
                        acc = acc.addingProduct(load8(p0 + inC), w01)
                        acc = acc.addingProduct(load8(p0 + 2 * inC), w02)
                        acc = acc.addingProduct(load8(p1), w10)
                        acc = acc.addingProduct(load8(p1 + inC), w11)
                        acc = acc.addingProduct(load8(p1 + 2 * inC), w12)
                        acc = acc.addingProduct(load8(p2), w20)
                        acc = acc.addingProduct(load8(p2 + inC), w21)
                        acc = acc.addingProduct(load8(p2 + 2 * inC), w22)
                        let destination = destinationRow + ox * outC + c
                        if partial {
                            storePartial(clamp.apply(acc), destination, count: outC - c)
                        } else {
                            store8(clamp.apply(acc), destination)
                        }
                    }
                    // Edge columns: only the taps inside the image.
                    for ox in 0..<outW where ox < interiorStart || ox >= interiorEnd {
                        let ix0 = ox * sw - padLeft
                        var acc = b
                        for kx in 0..<3 where ix0 + kx >= 0 && ix0 + kx < inW {
                            let at = (ix0 + kx) * inC + c
                            acc = acc.addingProduct(load8(row0 + at), load8(w + kx * paddedOut))
                            acc = acc.addingProduct(load8(row1 + at), load8(w + (3 + kx) * paddedOut))
                            acc = acc.addingProduct(load8(row2 + at), load8(w + (6 + kx) * paddedOut))
                        }
                        let destination = destinationRow + ox * outC + c
                        if partial {
                            storePartial(clamp.apply(acc), destination, count: outC - c)
                        } else {
                            store8(clamp.apply(acc), destination)
                        }
                    }
                    c += 8
                }
            }
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
