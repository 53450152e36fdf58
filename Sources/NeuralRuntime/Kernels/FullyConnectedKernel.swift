/// FULLY_CONNECTED: output[n][m] = bias[m] + sum over k of weights[m][k] * input[n][k].
/// Weights are packed once at load as [K][paddedM] so the inner loop updates eight outputs at a time.
/// The packed rows are read once, in order (four at a time, every output's sums in a scratch row):
/// a large layer (SFace's 50176x128, 25 MB) streams from memory instead of being read in 16
/// strided passes. Each output still adds its products in k order, as before (the same values).
struct FullyConnectedKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let batch: Int, inputs: Int, outputs: Int, paddedOut: Int
    /// [inputs][paddedOut], zero in the padding columns.
    let weights: UnsafePointer<Float>
    /// `paddedOut` entries, zero-padded.
    let bias: UnsafePointer<Float>
    /// `paddedOut` running sums.
    let sums: UnsafeMutablePointer<Float>
    let clamp: ClampRange

    /// Packs `weights` ([outputs][inputs], row-major) and `biasValues` into `storage`.
    init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, batch: Int, outputs: Int,
         weights values: [Float], biasValues: [Float]?, clamp: ClampRange, storage: FloatStorage) {
        self.input = input
        self.output = output
        self.batch = batch
        self.outputs = outputs
        inputs = values.count / max(1, outputs)
        paddedOut = (outputs + 7) / 8 * 8
        let packed = storage.allocate(inputs * paddedOut)
        for m in 0..<outputs {
            for k in 0..<inputs { packed[k * paddedOut + m] = values[m * inputs + k] }
        }
        weights = UnsafePointer(packed)
        bias = storage.paddedCopy(biasValues, count: outputs, paddedCount: paddedOut)
        sums = storage.allocate(paddedOut)
        self.clamp = clamp
    }

    func run() {
        for n in 0..<batch {
            let source = input + n * inputs
            let destination = output + n * outputs
            sums.update(from: bias, count: paddedOut)
            var k = 0
            while k + 4 <= inputs {
                let x0 = Float8(repeating: source[k]), x1 = Float8(repeating: source[k + 1])
                let x2 = Float8(repeating: source[k + 2]), x3 = Float8(repeating: source[k + 3])
                let row = weights + k * paddedOut
                var m = 0
                while m < paddedOut {
                    var sum = load8(sums + m)
                    sum += x0 * load8(row + m)
                    sum += x1 * load8(row + paddedOut + m)
                    sum += x2 * load8(row + 2 * paddedOut + m)
                    sum += x3 * load8(row + 3 * paddedOut + m)
                    store8(sum, sums + m)
                    m += 8
                }
                k += 4
            }
            while k < inputs {
                let x = Float8(repeating: source[k]), row = weights + k * paddedOut
                var m = 0
                while m < paddedOut {
                    store8(load8(sums + m) + x * load8(row + m), sums + m)
                    m += 8
                }
                k += 1
            }
            var m = 0
            while m < paddedOut {
                let result = clamp.apply(load8(sums + m))
                if m + 8 <= outputs {
                    store8(result, destination + m)
                } else {
                    storePartial(result, destination + m, count: outputs - m)
                }
                m += 8
            }
        }
    }
}
