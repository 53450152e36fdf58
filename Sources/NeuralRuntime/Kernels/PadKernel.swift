/// PAD with zeros on a tensor of rank up to 4 (lower ranks are treated as leading 1s).
struct PadKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    /// Input shape padded to rank 4.
    let inShape: [Int]
    /// Output shape padded to rank 4.
    let outShape: [Int]
    /// Elements added before, per dimension, rank 4.
    let before: [Int]
    let outputCount: Int

    func run() {
        output.update(repeating: 0, count: outputCount)
        let rowLength = inShape[3]
        let (d0, d1, d2) = (inShape[0], inShape[1], inShape[2])
        let (o1, o2, o3) = (outShape[1], outShape[2], outShape[3])
        for i0 in 0..<d0 {
            for i1 in 0..<d1 {
                for i2 in 0..<d2 {
                    let source = input + ((i0 * d1 + i1) * d2 + i2) * rowLength
                    let target = (((i0 + before[0]) * o1 + i1 + before[1]) * o2 + i2 + before[2]) * o3 + before[3]
                    (output + target).update(from: source, count: rowLength)
                }
            }
        }
    }
}
