// swift-tools-version:6.0
import PackageDescription

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
        .target(name: "Detection", dependencies: ["FaceCore"]),
        // Dispatch stages from decoded frame to encoded packet, and the CSV writer.
        .target(name: "Pipeline", dependencies: ["FaceCore", "MediaIO"]),
        // The public library: one import for other Swift programs.
        .target(name: "FaceTrack", dependencies: ["FaceCore", "MediaIO", "Detection", "Pipeline"]),
        // The command-line tool.
        .executableTarget(name: "facetrack", dependencies: ["FaceTrack"]),

        .testTarget(name: "FaceCoreTests", dependencies: ["FaceCore"]),
        .testTarget(name: "DetectionTests", dependencies: ["Detection", "FaceCore"],
                    resources: [.copy("Fixtures")]),

        // Viola-Jones cascade benchmark against OpenCV (and its boxes for the agreement check).
        .executableTarget(name: "haar-bench", dependencies: ["Detection", "FaceCore"], path: "Benchmarks/haar-bench"),
    ],
    swiftLanguageModes: [.v6]
)
