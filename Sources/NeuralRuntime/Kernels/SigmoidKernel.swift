import Foundation

/// Logistic sigmoid, element-wise (used once per network on a small map, so scalar `exp` is fine).
struct SigmoidKernel {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let count: Int

    func run() {
        for i in 0..<count { output[i] = 1 / (1 + exp(-input[i])) }
    }
}
