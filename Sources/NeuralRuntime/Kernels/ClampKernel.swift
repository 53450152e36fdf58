/// RELU / RELU6 / RELU_N1_TO_1 as a stand-alone operation.
struct ClampKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let count: Int
    let clamp: ClampRange

    func run() {
        if input != UnsafePointer(output) { output.update(from: input, count: count) }
        clamp.apply(output, count: count)
    }
}
