/// Transposed convolution ("deconvolution") over NHWC float32: every input pixel scatters
/// `input · filter[tap]` into the output pixel each kernel tap lands on. Weights are packed once
/// as [KH*KW][Cin][paddedOut] so eight output channels accumulate per vector.
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

    /// Packs `filter` ([Cout][KH][KW][Cin]) and `biasValues` into `storage`.
    init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int], outputShape: [Int],
         filter: [Float], filterShape: [Int], biasValues: [Float]?, parameters: ConvolutionParameters,
         storage: FloatStorage) {
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
    }

    func run() {
        let (batch, inH, inW, inC) = (sizes.batch, sizes.inH, sizes.inW, sizes.inC)
        let (outH, outW, outC, kernelH, kernelW) = (sizes.outH, sizes.outW, sizes.outC, sizes.kernelH, sizes.kernelW)
        // Start every output pixel at the bias, then add each tap's contribution.
        let pixels = batch * outH * outW
        for p in 0..<pixels { copyFloats(bias, output + p * outC, count: outC) }
        let sh = strideH, sw = strideW, top = padTop, left = padLeft
        for n in 0..<batch {
            for iy in 0..<inH {
                for ix in 0..<inW {
                    let source = input + ((n * inH + iy) * inW + ix) * inC
                    for ky in 0..<kernelH {
                        let oy = iy * sh + ky - top
                        if oy < 0 || oy >= outH { continue }
                        for kx in 0..<kernelW {
                            let ox = ix * sw + kx - left
                            if ox < 0 || ox >= outW { continue }
                            let destination = output + ((n * outH + oy) * outW + ox) * outC
                            accumulate(source, weights + (ky * kernelW + kx) * inC * paddedOut, into: destination)
                        }
                    }
                }
            }
        }
        if !clamp.isIdentity { clamp.apply(output, count: pixels * outC) }
    }

    /// destination[0..<outC] += source[0..<inC] x tapWeights[inC][paddedOut].
    @inline(__always)
    private func accumulate(_ source: UnsafePointer<Float>, _ tapWeights: UnsafePointer<Float>,
                            into destination: UnsafeMutablePointer<Float>) {
        let inC = sizes.inC, outC = sizes.outC
        var co = 0
        while co < paddedOut {
            var acc = Float8()
            var w = tapWeights + co
            for ci in 0..<inC {
                acc = acc.addingProduct(Float8(repeating: source[ci]), load8(w))
                w += paddedOut
            }
            if co + 8 <= outC {
                store8(load8(destination + co) + acc, destination + co)
            } else {
                addPartial(acc, destination + co, count: outC - co)
            }
            co += 8
        }
    }
}
