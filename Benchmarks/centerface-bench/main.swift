import BenchmarkTiming
import Detection
import FaceCore
import Foundation
import NeuralRuntime

// Median milliseconds per CenterFace inference on the in-project runtime, for each WIDTHxHEIGHT
// and thread count: prints "WxH threads wall_ms cpu_ms" lines (cpu = this process's CPU time).
// With --frame RAW:WxH (8-bit BGRA) it instead prints "detector ms faces" for each detector's
// whole detect() on that frame (resize, network, decoding), one thread.
// With --digest it prints "WxH threads digest" instead: a hash of every output bit after one run, to show
// that a kernel change leaves the outputs bit for bit the same (compare two builds' lines).
// With --crops N it prints, per network detector, crops per second over N 96 x 96 pictures detected one
// at a time and all at once (`detect(in: [BGRAImage])`, which batches where BatchPlan.pays), one thread;
// BlazeFace also with batches forced.
// Usage: centerface-bench MODEL.onnx [--runs N] [--threads 1,2] [--frame RAW:WxH] [--digest] [--crops N] WxH...
//        (--kernels: print the kernel path)

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 20
var threadCounts = [1, 2]
var sizes: [(Int, Int)] = []
var model: String?
var frame: (path: String, width: Int, height: Int)?
var digest = false
var crops = 0
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--kernels":
        // The kernel path networks load with (CPU features, FACETRACK_KERNELS).
        print(KernelPath.default)
        exit(0)
    case "--digest": digest = true
    case "--crops": crops = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? 0
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

/// Crops per second of each network detector over `count` 96 x 96 pictures, one `detect` per picture
/// against one `detect(in:)` of all of them (median of `runs` rounds each, interleaved).
func benchmarkCrops(count: Int, model: String, runs: Int) throws {
    let pictures = (0..<count).map { index -> BGRAImage in
        let picture = BGRAImage(width: 96, height: 96)
        for y in 0..<96 {
            for x in 0..<(96 * 4) { picture.row(y)[x] = UInt8(truncatingIfNeeded: (x * 7 + y * 13 + index * 29) * 7919 >> 4) }
        }
        picture.contentsDidChange()
        return picture
    }
    let models = ModelLocator(explicitDirectory: (model as NSString).deletingLastPathComponent)
    let forced = try BlazeFaceDetector(settings: BlazeFaceSettings(model: .full), models: models)
    forced.alwaysBatches = true
    let detectors: [(String, FaceDetector)] = [
        ("centerface", try CenterFaceDetector(settings: CenterFaceSettings(inputSize: 640), models: models)),
        ("blazeface full", try BlazeFaceDetector(settings: BlazeFaceSettings(model: .full), models: models)),
        ("blazeface full, batches forced", forced),
    ]
    for (label, detector) in detectors {
        for picture in pictures { _ = try detector.detect(in: picture) }
        _ = try detector.detect(in: pictures)
        var alone: [Double] = [], batched: [Double] = []
        for _ in 0..<max(1, runs) {
            alone.append(Timing.measure { for picture in pictures { _ = try? detector.detect(in: picture) } }.cpu)
            batched.append(Timing.measure { _ = try? detector.detect(in: pictures) }.cpu)
        }
        let a = alone.sorted()[alone.count / 2], b = batched.sorted()[batched.count / 2]
        print("\(label), \(count) crops of 96x96: one at a time \(String(format: "%.0f", Double(count) * 1000 / a)) crops/s, "
              + "batched \(String(format: "%.0f", Double(count) * 1000 / b)) crops/s (\(String(format: "%.2f", a / b))x; CPU ms)")
    }
}

/// Runs one of the detector benchmarks, then exits (1 with the error when it throws).
func runAndExit(_ benchmark: () throws -> Void) -> Never {
    do {
        try benchmark()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("centerface-bench: \(error)\n".utf8))
        exit(1)
    }
}

if crops > 0, let model { runAndExit { try benchmarkCrops(count: crops, model: model, runs: runs) } }
if let frame, let model { runAndExit { try benchmarkDetectors(on: frame, model: model, runs: runs) } }
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
        for threads in threadCounts where digest {
            // FNV-1a over the outputs' bit patterns (the input is refilled: the arena reuses its memory).
            for i in 0..<input.count { input[i] = Float((i * 7919) % 256) }
            network.run(threads: threads)
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for index in network.outputShapes.indices {
                for value in network.output(index) { hash = (hash ^ UInt64(value.bitPattern)) &* 0x100_0000_01b3 }
            }
            print("\(width)x\(height) \(threads) \(String(hash, radix: 16))")
        }
        for threads in threadCounts where !digest {
            for _ in 0..<3 { network.run(threads: threads) }
            let samples = (0..<max(1, runs)).map { _ in Timing.measure { network.run(threads: threads) } }
            // CENTERFACE_STAT=min: the fastest run instead of the median (on a shared host, the run
            // least disturbed by other tenants).
            let fastest = ProcessInfo.processInfo.environment["CENTERFACE_STAT"] == "min"
            let wall = samples.map(\.wall).sorted()[fastest ? 0 : samples.count / 2]
            let cpu = samples.map(\.cpu).sorted()[fastest ? 0 : samples.count / 2]
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
