/// CONCATENATION along one axis: for each outer index, copy each input's inner block in turn.
struct ConcatenationKernel {
    let inputs: [UnsafePointer<Float>]
    /// Elements each input contributes per outer index (its dims from the axis on, multiplied).
    let blockSizes: [Int]
    let output: UnsafeMutablePointer<Float>
    /// Product of the dims before the axis.
    let outerCount: Int
    let clamp: ClampRange

    func run() {
        var destination = output
        for outer in 0..<outerCount {
            for (index, source) in inputs.enumerated() {
                let block = blockSizes[index]
                destination.update(from: source + outer * block, count: block)
                destination += block
            }
        }
        clamp.apply(output, count: destination - output)
    }
}
