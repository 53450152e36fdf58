/// FULLY_CONNECTED: output[n][m] = bias[m] + sum over k of weights[m][k] * input[n][k].
/// Weights are packed once at load as [K][paddedM] so the inner loop updates eight outputs at a time.
struct FullyConnectedKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let batch: Int, inputs: Int, outputs: Int, paddedOut: Int
    /// [inputs][paddedOut], zero in the padding columns.
    let weights: UnsafePointer<Float>
    /// `paddedOut` entries, zero-padded.
    let bias: UnsafePointer<Float>
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
        self.clamp = clamp
    }

    func run() {
        for n in 0..<batch {
            let source = input + n * inputs
            let destination = output + n * outputs
            var m = 0
            while m < paddedOut {
                var sum = load8(bias + m)
                for k in 0..<inputs { sum += Float8(repeating: source[k]) * load8(weights + k * paddedOut + m) }
                let result = clamp.apply(sum)
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
