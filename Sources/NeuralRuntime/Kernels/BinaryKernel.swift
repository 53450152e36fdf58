/// Element-wise ADD and PRELU. The second operand either matches the first element for element
/// or repeats with a period of `period` elements (a per-channel vector broadcast over NHWC).
struct BinaryKernel {
    /// What to compute.
    enum Operation {
        /// a + b, then the clamp.
        case add
        /// a >= 0 ? a : a * b.
        case prelu
    }

    let operation: Operation
    let a: UnsafePointer<Float>
    let b: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let count: Int
    /// Length of `b` (equal to `count` when there is no broadcast).
    let period: Int
    let clamp: ClampRange

    func run() {
        var start = 0
        while start < count {
            let length = min(period, count - start)
            span(a + start, b, output + start, length)
            start += length
        }
    }

    @inline(__always)
    private func span(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
                      _ length: Int) {
        var i = 0
        switch operation {
        case .add:
            while i + 8 <= length {
                store8(clamp.apply(load8(x + i) + load8(y + i)), out + i)
                i += 8
            }
            while i < length {
                out[i] = clamp.apply(x[i] + y[i])
                i += 1
            }
        case .prelu:
            let zero = Float8()
            while i + 8 <= length {
                let value = load8(x + i)
                store8(value.replacing(with: value * load8(y + i), where: value .< zero), out + i)
                i += 8
            }
            while i < length {
                out[i] = x[i] >= 0 ? x[i] : x[i] * y[i]
                i += 1
            }
        }
    }
}
