/// AVERAGE_POOL_2D over NHWC: the mean of each window; cells outside the input (padding) are
/// not counted, as in TFLite. A window as large as the input is a global average pool.
struct AveragePoolKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let batch: Int, inH: Int, inW: Int, channels: Int
    let outH: Int, outW: Int
    let parameters: PoolParameters

    func run() {
        let clamp = ClampRange(parameters.activation)
        for n in 0..<batch {
            let image = input + n * inH * inW * channels
            for oy in 0..<outH {
                let iy0 = oy * parameters.strideH - parameters.padding.top
                let yStart = max(0, iy0), yEnd = max(yStart, min(inH, iy0 + parameters.filterH))
                for ox in 0..<outW {
                    let ix0 = ox * parameters.strideW - parameters.padding.left
                    let xStart = max(0, ix0), xEnd = max(xStart, min(inW, ix0 + parameters.filterW))
                    let scale = Float(1) / Float(max(1, (yEnd - yStart) * (xEnd - xStart)))
                    let destination = output + ((n * outH + oy) * outW + ox) * channels
                    var c = 0
                    while c + 8 <= channels {
                        var sum = Float8(repeating: 0)
                        for iy in yStart..<yEnd {
                            for ix in xStart..<xEnd { sum += load8(image + (iy * inW + ix) * channels + c) }
                        }
                        store8(clamp.apply(sum * scale), destination + c)
                        c += 8
                    }
                    while c < channels {
                        var sum: Float = 0
                        for iy in yStart..<yEnd {
                            for ix in xStart..<xEnd { sum += image[(iy * inW + ix) * channels + c] }
                        }
                        destination[c] = clamp.apply(sum * scale)
                        c += 1
                    }
                }
            }
        }
    }
}
