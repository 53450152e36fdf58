/// Transposed convolution ("deconvolution") over NHWC float32: every input pixel scatters
/// `input · filter[tap]` into the output pixel each kernel tap lands on. Weights are packed once
/// as [KH*KW][Cin][paddedOut] so eight output channels accumulate per vector.
struct TransposeConvolutionKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let weights: UnsafePointer<Float>
    let bias: UnsafePointer<Float>
    let batch: Int, inH: Int, inW: Int, inC: Int
    let outH: Int, outW: Int, outC: Int, paddedOut: Int
    let kernelH: Int, kernelW: Int
    let parameters: ConvolutionParameters
    let clamp: ClampRange
    /// Eight floats for storing a partial vector.
    let scratch: UnsafeMutablePointer<Float>

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
        let taps = kernelH * kernelW
        let packed = storage.allocate(taps * inC * paddedOut)
        for co in 0..<outC {
            for tap in 0..<taps {
                for ci in 0..<inC { packed[(tap * inC + ci) * paddedOut + co] = filter[(co * taps + tap) * inC + ci] }
            }
        }
        weights = UnsafePointer(packed)
        bias = storage.paddedCopy(biasValues, count: outC, paddedCount: paddedOut)
        self.parameters = parameters
        clamp = ClampRange(parameters.activation)
        scratch = storage.allocate(8)
    }

    func run() {
        // Start every output pixel at the bias, then add each tap's contribution.
        let pixels = batch * outH * outW
        for p in 0..<pixels { copyFloats(bias, output + p * outC, count: outC) }
        let sh = parameters.strideH, sw = parameters.strideW
        let top = parameters.padding.top, left = parameters.padding.left
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
                store8(acc, scratch)
                for lane in 0..<(outC - co) { destination[co + lane] += scratch[lane] }
            }
            co += 8
        }
    }
}
