// swift-tools-version:6.0
import PackageDescription

// The neural-network kernels are written for 256-bit vectors with fused multiply-add; on x86-64
// that needs AVX2/FMA (Haswell, 2013, or newer), which the default x86-64 baseline does not enable.
#if arch(x86_64)
let vectorSettings: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "haswell"])]
#else
let vectorSettings: [SwiftSetting] = []
#endif

let package = Package(
    name: "FaceTrack",
    products: [
        .executable(name: "facetrack", targets: ["facetrack"]),
        .library(name: "FaceTrack", targets: ["FaceTrack"]),
    ],
    targets: [
        // C interop: the FFmpeg libraries plus a shim for macros Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        // Shared value types: images, face observations, the detector protocol.
        .target(name: "FaceCore"),
        // Owning wrappers over FFmpeg: demux, decode, scale, encode, mux.
        .target(name: "MediaIO", dependencies: ["CFFmpeg", "FaceCore"]),
        // The face detectors behind the `FaceDetector` protocol.
        .target(name: "Detection", dependencies: ["FaceCore", "NeuralRuntime"]),
        // A small float32 NHWC neural-network runtime with a TFLite reader (Foundation only).
        .target(name: "NeuralRuntime", swiftSettings: vectorSettings),
        // Dispatch stages from decoded frame to encoded packet, and the CSV writer.
        .target(name: "Pipeline", dependencies: ["FaceCore", "MediaIO"]),
        // The public library: one import for other Swift programs.
        .target(name: "FaceTrack", dependencies: ["FaceCore", "MediaIO", "Detection", "Pipeline"]),
        // The command-line tool.
        .executableTarget(name: "facetrack", dependencies: ["FaceTrack"]),

        .testTarget(name: "FaceCoreTests", dependencies: ["FaceCore"]),
        .testTarget(name: "NeuralRuntimeTests", dependencies: ["NeuralRuntime"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DetectionTests", dependencies: ["Detection", "FaceCore", "NeuralRuntime"],
                    resources: [.copy("Fixtures")]),
        // Times the runtime on the BlazeFace models (run through scripts/bench-blazeface).
        .executableTarget(name: "runtime-bench", dependencies: ["NeuralRuntime"], path: "Benchmarks/runtime-bench",
                          swiftSettings: vectorSettings),
        // Prints BlazeFace detections for raw BGRA images (run through scripts/eval-blazeface).
        .executableTarget(name: "blazeface-eval", dependencies: ["Detection", "FaceCore"],
                          path: "Benchmarks/blazeface-eval"),
    ],
    swiftLanguageModes: [.v6]
)
