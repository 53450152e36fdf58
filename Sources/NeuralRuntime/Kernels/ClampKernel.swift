/// RELU / RELU6 / RELU_N1_TO_1 as a stand-alone operation (when it could not be fused).
struct ClampKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let count: Int
    let clamp: ClampRange

    func run() {
        var i = 0
        while i + 8 <= count {
            store8(clamp.apply(load8(input + i)), output + i)
            i += 8
        }
        while i < count {
            output[i] = clamp.apply(input[i])
            i += 1
        }
    }
}
