/// MAX_POOL_2D over NHWC; padded cells are skipped (never win the maximum).
struct MaxPoolKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let batch: Int, inH: Int, inW: Int, channels: Int
    let outH: Int, outW: Int
    let parameters: PoolParameters
    let clamp: ClampRange

    func run() {
        let vectorEnd = channels / 8 * 8
        for n in 0..<batch {
            let image = input + n * inH * inW * channels
            for oy in 0..<outH {
                let iy0 = oy * parameters.strideH - parameters.padding.top
                let yStart = max(0, iy0), yEnd = min(inH, iy0 + parameters.filterH)
                for ox in 0..<outW {
                    let ix0 = ox * parameters.strideW - parameters.padding.left
                    let xStart = max(0, ix0), xEnd = min(inW, ix0 + parameters.filterW)
                    let destination = output + ((n * outH + oy) * outW + ox) * channels
                    var c = 0
                    while c < vectorEnd {
                        var best = Float8(repeating: -.infinity)
                        for iy in yStart..<max(yStart, yEnd) {
                            for ix in xStart..<max(xStart, xEnd) {
                                best = maximum(best, load8(image + (iy * inW + ix) * channels + c))
                            }
                        }
                        store8(clamp.apply(best), destination + c)
                        c += 8
                    }
                    while c < channels {
                        var best = -Float.infinity
                        for iy in yStart..<max(yStart, yEnd) {
                            for ix in xStart..<max(xStart, xEnd) {
                                best = max(best, image[(iy * inW + ix) * channels + c])
                            }
                        }
                        destination[c] = clamp.apply(best)
                        c += 1
                    }
                }
            }
        }
    }
}
