/// RESIZE_BILINEAR over NHWC with TFLite's coordinate rules (align_corners, half_pixel_centers).
/// The source rows/columns and weights of every output row/column are computed once at load.
struct ResizeBilinearKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let batch: Int, inH: Int, inW: Int, channels: Int
    let outH: Int, outW: Int
    /// Per output row: (lower row, upper row, weight of the upper row).
    let rows: [(Int, Int, Float)]
    /// Per output column: (lower column, upper column, weight of the upper column).
    let columns: [(Int, Int, Float)]

    init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int], outH: Int, outW: Int,
         alignCorners: Bool, halfPixelCenters: Bool) {
        self.input = input
        self.output = output
        batch = inputShape[0]; inH = inputShape[1]; inW = inputShape[2]; channels = inputShape[3]
        self.outH = outH
        self.outW = outW
        rows = Self.axis(inSize: inH, outSize: outH, alignCorners: alignCorners, halfPixel: halfPixelCenters)
        columns = Self.axis(inSize: inW, outSize: outW, alignCorners: alignCorners, halfPixel: halfPixelCenters)
    }

    /// Source indices and weights along one axis, as TensorFlow Lite computes them.
    static func axis(inSize: Int, outSize: Int, alignCorners: Bool, halfPixel: Bool) -> [(Int, Int, Float)] {
        let scale: Float = alignCorners && outSize > 1
            ? Float(inSize - 1) / Float(outSize - 1) : Float(inSize) / Float(outSize)
        return (0..<outSize).map { index in
            let position = halfPixel ? (Float(index) + 0.5) * scale - 0.5 : Float(index) * scale
            let lower = max(Int(position.rounded(.down)), 0)
            let upper = min(Int(position.rounded(.up)), inSize - 1)
            return (min(lower, inSize - 1), max(upper, 0), position - Float(lower))
        }
    }

    func run() {
        let vectorEnd = channels / 8 * 8
        for n in 0..<batch {
            let image = input + n * inH * inW * channels
            for oy in 0..<outH {
                let (y0, y1, dy) = rows[oy]
                let top = image + y0 * inW * channels, bottom = image + y1 * inW * channels
                for ox in 0..<outW {
                    let (x0, x1, dx) = columns[ox]
                    let w00 = (1 - dy) * (1 - dx), w01 = (1 - dy) * dx, w10 = dy * (1 - dx), w11 = dy * dx
                    let p00 = top + x0 * channels, p01 = top + x1 * channels
                    let p10 = bottom + x0 * channels, p11 = bottom + x1 * channels
                    let destination = output + ((n * outH + oy) * outW + ox) * channels
                    var c = 0
                    while c < vectorEnd {
                        var value = load8(p00 + c) * Float8(repeating: w00)
                        value = value.addingProduct(load8(p01 + c), Float8(repeating: w01))
                        value = value.addingProduct(load8(p10 + c), Float8(repeating: w10))
                        value = value.addingProduct(load8(p11 + c), Float8(repeating: w11))
                        store8(value, destination + c)
                        c += 8
                    }
                    while c < channels {
                        destination[c] = p00[c] * w00 + p01[c] * w01 + p10[c] * w10 + p11[c] * w11
                        c += 1
                    }
                }
            }
        }
    }
}
