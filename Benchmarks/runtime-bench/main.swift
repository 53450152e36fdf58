import BenchmarkTiming
import Foundation
import NeuralRuntime

// Median milliseconds per inference of the in-project runtime on each model given on the
// command line: runtime-bench MODEL.tflite... [--runs N] [--threads 1,2] [--profile]. Prints
// "name threads wall_ms cpu_ms" per model and thread count (medians of wall-clock and of this
// thread's CPU time, which other processes on a shared machine do not inflate; with two threads it
// counts the calling thread only); --profile adds the median time per kernel kind, --profile-steps
// per step, slowest first; --kernels prints
// the kernel path networks load with.

var paths: [String] = []
var runs = 200
var profile = false
var profileSteps = false
var threadCounts = [1]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    if argument == "--runs", let value = arguments.next().flatMap(Int.init) {
        runs = max(1, value)
    } else if argument == "--threads", let value = arguments.next() {
        threadCounts = value.split(separator: ",").compactMap { Int($0) }
    } else if argument == "--kernels" {
        print(KernelPath.default)
        exit(0)
    } else if argument == "--profile-steps" {
        profileSteps = true
    } else if argument == "--profile" {
        profile = true
    } else {
        paths.append(argument)
    }
}
if paths.isEmpty {
    FileHandle.standardError.write("usage: runtime-bench MODEL.tflite... [--runs N] [--profile]\n".data(using: .utf8)!)
    exit(2)
}

for path in paths {
    do {
        let network = try NeuralNetwork(tfliteFile: path)
        let input = network.input(0)
        for i in 0..<input.count { input[i] = Float((i * 7919) % 256) / 127.5 - 1 }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        for threads in threadCounts {
            for _ in 0..<max(3, runs / 10) { network.run(threads: threads) }
            var times: [Double] = [], cpuTimes: [Double] = []
            times.reserveCapacity(runs)
            cpuTimes.reserveCapacity(runs)
            for _ in 0..<runs {
                let start = Timing.wallMilliseconds(), cpuStart = Timing.threadMilliseconds()
                network.run(threads: threads)
                cpuTimes.append(Timing.threadMilliseconds() - cpuStart)
                times.append(Timing.wallMilliseconds() - start)
            }
            times.sort()
            cpuTimes.sort()
            print(String(format: "%@ %d %.3f %.3f", name, threads, times[times.count / 2], cpuTimes[runs / 2]))
        }
        if profileSteps {
            for (step, milliseconds) in network.profileSteps(runs: runs).sorted(by: { $0.milliseconds > $1.milliseconds }) {
                print(String(format: "    %7.3f ms  %@", milliseconds, step))
            }
        }
        if profile {
            for (kernel, milliseconds) in network.profileKernels(runs: runs) {
                print(String(format: "    %-18@ %.3f ms", kernel, milliseconds))
            }
        }
    } catch {
        FileHandle.standardError.write("runtime-bench: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}
