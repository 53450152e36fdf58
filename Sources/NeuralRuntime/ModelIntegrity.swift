import Foundation
import Synchronization

/// The model files FaceTrack knows, with the sizes and sha256 hashes `scripts/setup` checks when
/// it installs them. A known file is verified when it is loaded (once per process), so a copy
/// with a few flipped bytes, which would load and then report thousands of faces, is refused.
package enum ModelIntegrity {
    /// File name → (size in bytes, sha256). Keep in step with scripts/setup.
    package static let known: [String: (size: Int, sha256: String)] = [
        "face_detection_short_range.tflite": (229_032, "3bc182eb9f33925d9e58b5c8d59308a760f4adea8f282370e428c51212c26633"),
        "face_detection_full_range.tflite": (1_083_984, "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3"),
        "face_landmark.tflite": (2_439_440, "2efcb4f4de43c7614b80a3cc3e8a37354b3b3b40f75cce20f6f38f0f25d65493"),
        "iris_landmark.tflite": (2_640_568, "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f"),
        "centerface.onnx": (7_304_518, "09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc"),
        "dlib_face_recognition_resnet_model_v1.dat": (22_466_066, "55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30"),
        "face_recognition_sface_2021dec_int8bq.onnx": (10_667_852, "fb143eea07838aa532d1c95df5f69899974ea0140e1fba05e94204be13ed74ee"),
    ]

    /// Paths (with size and modification time) already verified in this process.
    private static let verified = Mutex<Set<String>>([])

    /// Throws when `bytes`, read from `path`, is a known model file whose hash is not the known
    /// one. A file of another size is left to the reader (a cut file gets the parser's own, more
    /// precise message), except a longer one, which no reader would notice.
    static func check(_ bytes: ModelBytes, path: String) throws {
        let name = (path as NSString).lastPathComponent
        guard let expected = known[name] else { return }
        if bytes.count < expected.size { return }
        if bytes.count > expected.size {
            throw NeuralRuntimeError.unreadable(path: path, reason: "\(bytes.count) bytes, the known \(name) has \(expected.size)")
        }
        var info = stat()
        let key = stat(path, &info) == 0 ? "\(path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)" : path
        if verified.withLock({ $0.contains(key) }) { return }
        let actual = SHA256.hex(bytes.buffer)
        guard actual == expected.sha256 else {
            throw NeuralRuntimeError.unreadable(path: path, reason: "sha256 \(actual.prefix(12))… is not the known \(name)'s \(expected.sha256.prefix(12))…")
        }
        _ = verified.withLock { $0.insert(key) }
    }
}
