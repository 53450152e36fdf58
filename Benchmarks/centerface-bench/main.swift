import BenchmarkTiming
import Detection
import FaceCore
import Foundation
import NeuralRuntime

// Median milliseconds per CenterFace inference on the in-project runtime, for each WIDTHxHEIGHT
// and thread count: prints "WxH threads wall_ms cpu_ms" lines (cpu = this process's CPU time).
// With --frame RAW:WxH (8-bit BGRA) it instead prints "detector ms faces" for each detector's
// whole detect() on that frame (resize, network, decoding), one thread.
// Usage: centerface-bench MODEL.onnx [--runs N] [--threads 1,2] [--frame RAW:WxH] WxH...   (--kernels: print the kernel path)

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 20
var threadCounts = [1, 2]
var sizes: [(Int, Int)] = []
var model: String?
var frame: (path: String, width: Int, height: Int)?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--kernels":
        // The kernel path networks load with (CPU features, FACETRACK_KERNELS).
        print(KernelPath.default)
        exit(0)
    case "--runs": runs = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? runs
    case "--frame":
        let parts = (arguments.isEmpty ? "" : arguments.removeFirst()).split(separator: ":")
        let size = parts.last.map { $0.split(separator: "x").compactMap { Int($0) } } ?? []
        if parts.count == 2, size.count == 2 { frame = (String(parts[0]), size[0], size[1]) }
    case "--threads":
        threadCounts = (arguments.isEmpty ? "" : arguments.removeFirst()).split(separator: ",").compactMap { Int($0) }
    default:
        let parts = argument.split(separator: "x").compactMap { Int($0) }
        if parts.count == 2 { sizes.append((parts[0], parts[1])) } else { model = argument }
    }
}
/// Median ms of `detect` for each detector on one BGRA frame.
func benchmarkDetectors(on frame: (path: String, width: Int, height: Int), model: String, runs: Int) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: frame.path)))
    guard bytes.count >= frame.width * frame.height * 4 else { throw CocoaError(.fileReadCorruptFile) }
    let image = BGRAImage(width: frame.width, height: frame.height)
    for y in 0..<frame.height {
        for x in 0..<(frame.width * 4) { image.row(y)[x] = bytes[y * frame.width * 4 + x] }
    }
    image.contentsDidChange()
    let models = ModelLocator(explicitDirectory: (model as NSString).deletingLastPathComponent)
    let detectors: [(String, FaceDetector)] = [
        ("centerface --input-size 640", try CenterFaceDetector(settings: CenterFaceSettings(inputSize: 640), models: models)),
        ("centerface --input-size 320", try CenterFaceDetector(settings: CenterFaceSettings(inputSize: 320), models: models)),
        ("blazeface full", try BlazeFaceDetector(settings: BlazeFaceSettings(model: .full), models: models)),
        ("blazeface short", try BlazeFaceDetector(settings: BlazeFaceSettings(model: .short), models: models)),
    ]
    for (label, detector) in detectors {
        var faces = 0
        for _ in 0..<3 { faces = try detector.detect(in: image).count }
        var samples: [Double] = []
        for _ in 0..<max(1, runs) { samples.append(Timing.measure { _ = try? detector.detect(in: image) }.wall) }
        print("\(label): \(String(format: "%.2f", samples.sorted()[samples.count / 2])) ms, \(faces) faces")
    }
}

if let frame, let model {
    do {
        try benchmarkDetectors(on: frame, model: model, runs: runs)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("centerface-bench: \(error)\n".utf8))
        exit(1)
    }
}
guard let model, !sizes.isEmpty else {
    FileHandle.standardError.write(Data("usage: centerface-bench MODEL.onnx [--runs N] [--threads 1,2] WxH...\n".utf8))
    exit(2)
}
do {
    let resizable = try ResizableNetwork(graph: try ONNXReader.graph(contentsOf: model))
    for (width, height) in sizes {
        let network = try resizable.network(height: height, width: width)
        let input = network.input(0)
        for i in 0..<input.count { input[i] = Float((i * 7919) % 256) }
        for threads in threadCounts {
            for _ in 0..<3 { network.run(threads: threads) }
            let samples = (0..<max(1, runs)).map { _ in Timing.measure { network.run(threads: threads) } }
            let wall = samples.map(\.wall).sorted()[samples.count / 2]
            let cpu = samples.map(\.cpu).sorted()[samples.count / 2]
            print("\(width)x\(height) \(threads) \(String(format: "%.2f", wall)) \(String(format: "%.2f", cpu))")
        }
    }
    if ProcessInfo.processInfo.environment["CENTERFACE_PROFILE"] == "steps", let (width, height) = sizes.first {
        // Every step, slowest first.
        let steps = try resizable.network(height: height, width: width).profileSteps(runs: runs)
        for (step, ms) in steps.sorted(by: { $0.milliseconds > $1.milliseconds }) {
            FileHandle.standardError.write(Data("  \(String(format: "%6.3f", ms)) ms  \(step)\n".utf8))
        }
    } else if ProcessInfo.processInfo.environment["CENTERFACE_PROFILE"] != nil, let (width, height) = sizes.first {
        for (kernel, ms) in try resizable.network(height: height, width: width).profileKernels(runs: runs) {
            FileHandle.standardError.write(Data("  \(kernel): \(String(format: "%.2f", ms)) ms\n".utf8))
        }
    }
} catch {
    FileHandle.standardError.write(Data("centerface-bench: \(error)\n".utf8))
    exit(1)
}
