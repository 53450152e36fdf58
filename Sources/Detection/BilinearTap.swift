/// One output column or row of a bilinear resize: the two source indices and the weight of the
/// second. Shared by the detectors' input samplers.
struct BilinearTap {
    let lower: Int
    let upper: Int
    let weight: Float

    /// Writes the R, G, B of the bilinear sample between BGRA rows `top` and `bottom` (row weight
    /// `rowWeight` towards `bottom`) at this column, as `value * scale + offset`.
    @inline(__always)
    func writeRGB(_ pixel: UnsafeMutablePointer<Float>, top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>,
                  rowWeight: Float, scale: Float, offset: Float) {
        let p00 = top + lower * 4, p01 = top + upper * 4
        let p10 = bottom + lower * 4, p11 = bottom + upper * 4
        for channel in 0..<3 {
            // BGRA byte order: R is byte 2, G 1, B 0.
            let byte = 2 - channel
            let upperRow = Float(p00[byte]) + (Float(p01[byte]) - Float(p00[byte])) * weight
            let lowerRow = Float(p10[byte]) + (Float(p11[byte]) - Float(p10[byte])) * weight
            pixel[channel] = (upperRow + (lowerRow - upperRow) * rowWeight) * scale + offset
        }
    }
}
