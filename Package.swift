// swift-tools-version:6.0
import PackageDescription

// Every module is built for the baseline of its architecture (SSE2 on x86-64): the binary runs on
// any x86-64 CPU. Only NeuralKernels' kernels_avx2.c and kernels_avx512.c use wider instructions,
// and the dispatcher calls them only on CPUs that have them (InstructionSetTests checks the binary).

// Modules with per-pixel and per-weight loops are optimised in debug builds too: unoptimised,
// one BlazeFace inference takes over a second and the test suite would take many minutes.
let hotLoopSettings: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "FaceTrack",
    products: [
        .executable(name: "facetrack", targets: ["facetrack"]),
        .library(name: "FaceTrack", targets: ["FaceTrack"]),
        // Detection on in-memory images only: no FFmpeg to link.
        .library(name: "FaceDetection", targets: ["FaceDetection"]),
    ],
    targets: [
        // C interop: the FFmpeg libraries plus a shim for macros Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        // Shared value types: images, face observations, the detector protocol.
        .target(name: "FaceCore", swiftSettings: hotLoopSettings),
        // Owning wrappers over FFmpeg: demux, decode, scale, encode, mux.
        .target(name: "MediaIO", dependencies: ["CFFmpeg", "FaceCore"]),
        // The face detectors behind the `FaceDetector` protocol.
        .target(name: "Detection", dependencies: ["FaceCore", "NeuralRuntime"], swiftSettings: hotLoopSettings),
        // A small float32 NHWC neural-network runtime with a TFLite reader (Foundation only).
        .target(name: "NeuralRuntime", dependencies: ["NeuralKernels"], swiftSettings: hotLoopSettings),
        // The runtime's hot kernels in C (packed-GEMM convolutions, depthwise), built for generic SIMD,
        // AVX2+FMA and AVX-512 and chosen at load time; optimised in debug builds too.
        .target(name: "NeuralKernels", cSettings: [.unsafeFlags(["-O3"])]),
        // Face attributes from MediaPipe's face mesh: crop, mesh, eye/smile/angle measures, hysteresis.
        .target(name: "Attributes", dependencies: ["FaceCore", "NeuralRuntime"], swiftSettings: hotLoopSettings),
        // Face identities: dlib's face embeddings on the runtime, chips, galleries, re-identification, known people.
        .target(name: "Identity", dependencies: ["FaceCore", "NeuralRuntime"], swiftSettings: hotLoopSettings),
        // Multi-face tracking: Kalman + optimal IoU assignment, One Euro smoothing, MOT and summary output.
        .target(name: "Tracking", dependencies: ["FaceCore"]),
        // Where and when to detect: whole-frame keyframes, crops around tracked faces, tiles, shot cuts.
        .target(name: "Scheduling", dependencies: ["FaceCore", "Tracking"]),
        // Overlays drawn on BGRA frames: boxes, eye markers and sprites, labels, anonymisation.
        .target(name: "Rendering", dependencies: ["FaceCore"], swiftSettings: hotLoopSettings),
        // `facetrack report`: tracks CSV reader, track model, HTML page with inline SVG and thumbnails, batch index.
        .target(name: "Report", dependencies: ["FaceCore", "MediaIO"]),
        // The job (`FaceTrackJob`): Dispatch stages from decoded frame to encoded packet, and the CSV writers.
        .target(name: "Pipeline", dependencies: ["FaceCore", "MediaIO", "Detection", "Tracking", "Scheduling", "Rendering",
                                                 "Attributes", "Report", "Identity", "Evaluation"]),
        // Scores face tracks against ground truth (detection and CLEAR MOT / IDF1 metrics), check manifests.
        .target(name: "Evaluation", dependencies: ["FaceCore", "Tracking"]),
        // The public library: one import for other Swift programs.
        .target(name: "FaceTrack", dependencies: ["FaceCore", "MediaIO", "Detection", "Tracking", "Rendering", "Pipeline",
                                                  "Evaluation", "Attributes", "Identity"]),
        // The detection-only library (FaceCore, Detection, Attributes): no FFmpeg.
        .target(name: "FaceDetection", dependencies: ["FaceCore", "Detection", "Attributes"]),
        // Batch runs: input discovery, sharding, output layout and locks, results records, the worker pool.
        .target(name: "Batch", dependencies: ["Pipeline", "Report"]),
        // One long video over many machines: split plans at key frames, segment runs, stitching at the seams.
        .target(name: "Segments", dependencies: ["Pipeline", "MediaIO", "Report", "Identity", "Tracking", "Rendering", "FaceCore"]),
        // The command-line tool.
        // Depends on every module directly (not only through FaceTrack's re-exports) so that
        // incremental builds recompile it whenever one of them changes.
        .executableTarget(name: "facetrack", dependencies: ["FaceTrack", "FaceCore", "MediaIO", "Detection", "Tracking",
                                                          "Rendering", "Pipeline", "Evaluation", "Batch", "Attributes", "Report", "Identity",
                                                          "Segments"]),

        // The README's library example: faces in a photo (built and run by scripts/test).
        .executableTarget(name: "detect-photo", dependencies: ["FaceTrack", "FaceCore", "MediaIO", "Detection"],
                          path: "Examples/detect-photo"),

        // Helpers for tests: run ffmpeg and the built tool, make clips, temporary folders.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FaceCoreTests", dependencies: ["FaceCore"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "FaceCore", "TestSupport"]),
        .testTarget(name: "NeuralRuntimeTests", dependencies: ["NeuralRuntime", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DetectionTests", dependencies: ["Detection", "FaceCore", "NeuralRuntime"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "AttributesTests", dependencies: ["Attributes", "FaceCore", "Detection", "MediaIO"]),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "FaceCore"]),
        .testTarget(name: "SchedulingTests", dependencies: ["Scheduling", "Tracking", "FaceCore"]),
        .testTarget(name: "IdentityTests", dependencies: ["Identity", "FaceCore", "NeuralRuntime", "Detection", "MediaIO", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "FaceCore"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "MediaIO", "FaceCore", "Detection", "Tracking", "Rendering",
                                                          "TestSupport"]),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "FaceCore", "TestSupport"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "FaceCore", "MediaIO", "TestSupport"]),
        .testTarget(name: "BatchTests", dependencies: ["Batch", "Pipeline", "Detection", "TestSupport"]),
        .testTarget(name: "SegmentsTests", dependencies: ["Segments", "Pipeline", "MediaIO", "Identity", "FaceCore", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["facetrack", "TestSupport"]),
        // The public API alone, as a program that imports FaceTrack sees it (docs/library.md).
        // Listing the modules behind FaceTrack makes incremental builds recompile the tests when one changes.
        .testTarget(name: "LibraryTests", dependencies: ["FaceTrack", "FaceCore", "MediaIO", "Detection", "Tracking", "Rendering",
                                                         "Pipeline", "Attributes", "TestSupport"]),
        // Runs the built tool on mutated inputs and counts crashes, hangs and leftovers (scripts/fuzz).
        .executableTarget(name: "facetrack-fuzz", path: "Tests/Fuzz"),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks and evaluation tools, run by scripts/bench-* and scripts/eval-*, never by tests: one
// executable per folder of Benchmarks/ (same name), each timed with Benchmarks/Timing. They belong to
// this package so that `package` access lets them time the runtime, the detectors and the tracker
// directly, but they are not part of the product above.
let benchmarks: [(name: String, dependencies: [Target.Dependency])] = [
    // One tracker step with 20 and 200 faces (scripts/bench-tracker).
    ("tracker-bench", ["Tracking", "FaceCore"]),
    // Overlay drawing on a 1080p frame with 10 faces (scripts/bench-overlays).
    ("overlay-bench", ["Rendering", "FaceCore"]),
    // The runtime on the BlazeFace models (scripts/bench-blazeface).
    ("runtime-bench", ["NeuralRuntime"]),
    // CenterFace at two sizes, 1 and 2 threads, and each detector on a 720p frame (scripts/bench-centerface).
    ("centerface-bench", ["NeuralRuntime", "Detection", "FaceCore"]),
    // Per-face cost of the face-mesh attributes (scripts/bench-attributes).
    ("attributes-bench", ["Attributes", "Detection", "FaceCore", "MediaIO", "NeuralRuntime"]),
    // Face-embedding cost per face and distances between people's pictures (scripts/bench-identity).
    ("identity-bench", ["Identity", "Detection", "FaceCore", "MediaIO", "NeuralRuntime"]),
    // BlazeFace detections for raw BGRA images (scripts/eval-blazeface).
    ("blazeface-eval", ["Detection", "FaceCore"]),
    // Viola-Jones cascade speed against OpenCV, and its boxes for the agreement check
    // (scripts/bench-haar, scripts/check-haar-agreement).
    ("haar-bench", ["Detection", "FaceCore"]),
]
package.targets.append(.target(name: "BenchmarkTiming", dependencies: ["FaceCore"], path: "Benchmarks/Timing"))
package.targets += benchmarks.map { bench in
    .executableTarget(name: bench.name, dependencies: bench.dependencies + ["BenchmarkTiming"], path: "Benchmarks/" + bench.name)
}
