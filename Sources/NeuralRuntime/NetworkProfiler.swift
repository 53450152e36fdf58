import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// This thread's CPU time in milliseconds where the platform has it (other processes on a shared
/// machine do not inflate it), else wall-clock.
private func stepClock() -> Double {
    #if canImport(Glibc)
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
    #else
    return Double(DispatchTime.now().uptimeNanoseconds) / 1e6
    #endif
}

extension NeuralNetwork {
    /// Runs the network `runs` times and returns the median milliseconds (this thread's CPU time)
    /// spent per run in each kind of kernel (e.g. "convolution 1x1", "depthwise"), for benchmarks.
    package func profileKernels(runs: Int) -> [(kernel: String, milliseconds: Double)] {
        var samples: [String: [Double]] = [:]
        for _ in 0..<max(1, runs) {
            var perRun: [String: Double] = [:]
            for step in stepsForProfiling {
                let start = stepClock()
                step.run()
                perRun[step.kindName, default: 0] += stepClock() - start
            }
            for (kind, time) in perRun { samples[kind, default: []].append(time) }
        }
        return samples.map { ($0.key, $0.value.sorted()[$0.value.count / 2]) }.sorted { $0.1 > $1.1 }
    }
}

extension NeuralNetwork {
    /// Median milliseconds (CPU time) of each step over `runs` runs, with its kind and output shape, in graph
    /// order (for tuning one kernel at a time).
    package func profileSteps(runs: Int) -> [(step: String, milliseconds: Double)] {
        let steps = stepsForProfiling
        var samples = [[Double]](repeating: [], count: steps.count)
        for _ in 0..<max(1, runs) {
            for (index, step) in steps.enumerated() {
                let start = stepClock()
                step.run()
                samples[index].append(stepClock() - start)
            }
        }
        return zip(steps, samples).map { step, times in (step.detail, times.sorted()[times.count / 2]) }
    }
}

extension NetworkStep {
    /// The kind plus the sizes that matter for its speed.
    var detail: String {
        switch self {
        case let .convolution(kernel):
            let s = kernel.shape
            return "\(kindName) \(s.in_h)x\(s.in_w)x\(s.in_c) -> \(s.out_h)x\(s.out_w)x\(s.out_c) stride \(s.stride_h)"
        case let .depthwise(kernel):
            return "\(kindName) \(kernel.inH)x\(kernel.inW)x\(kernel.inC) -> \(kernel.outH)x\(kernel.outW) "
                + "\(kernel.kernelH)x\(kernel.kernelW) stride \(kernel.parameters.strideH)"
        default:
            return kindName
        }
    }

    /// A short label of the kernel, for profiles.
    var kindName: String {
        switch self {
        case let .convolution(kernel):
            return kernel.kernelH == 1 && kernel.kernelW == 1 ? "convolution 1x1" : "convolution \(kernel.kernelH)x\(kernel.kernelW)"
        case .depthwise: return "depthwise"
        case .binary: return "add/prelu"
        case .clamp: return "relu"
        case .maxPool: return "max pool"
        case .pad: return "pad"
        case .copy: return "reshape"
        case .concatenation: return "concatenation"
        case .resize: return "resize bilinear"
        case .transposeConvolution: return "transposed convolution"
        case .sigmoid: return "sigmoid"
        case .averagePool: return "average pool"
        case .fullyConnected: return "fully connected"
        }
    }
}
