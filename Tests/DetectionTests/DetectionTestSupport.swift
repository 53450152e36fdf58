import Foundation
import XCTest
import FaceCore

/// Helpers for the detection tests: models folder, fixtures, PPM decoding.
enum DetectionTestSupport {
    /// A locator for the models: $FACETRACK_MODELS, else the first `models` folder above this file.
    /// Throws a clear failure when the BlazeFace models are absent.
    static func models() throws -> ModelLocator {
        if let env = ProcessInfo.processInfo.environment[ModelLocator.environmentVariable], !env.isEmpty {
            return ModelLocator(explicitDirectory: env)
        }
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("models")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(
                "face_detection_full_range.tflite").path) {
                return ModelLocator(explicitDirectory: candidate.path)
            }
            dir.deleteLastPathComponent()
        }
        throw MissingModels()
    }

    struct MissingModels: Error, CustomStringConvertible {
        var description: String { "BlazeFace models not found: run scripts/setup or set FACETRACK_MODELS" }
    }

    struct MissingFixture: Error, CustomStringConvertible {
        let name: String
        var description: String { "fixture \(name) missing: run scripts/reference/blazeface_reference.py fixture" }
    }

    /// The URL of a file in Tests/DetectionTests/Fixtures.
    static func fixtureURL(_ name: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw MissingFixture(name: name)
        }
        return url
    }

    /// Decodes a binary (P6, 8-bit) PPM into an opaque BGRA image.
    static func loadPPM(_ url: URL) throws -> BGRAImage {
        let bytes = [UInt8](try Data(contentsOf: url))
        var fields: [Int] = []
        var position = 2
        while fields.count < 3, position < bytes.count {
            while position < bytes.count, bytes[position] == 32 || (9...13).contains(bytes[position]) { position += 1 }
            var value = 0
            while position < bytes.count, (48...57).contains(bytes[position]) {
                value = value * 10 + Int(bytes[position] - 48)
                position += 1
            }
            fields.append(value)
        }
        position += 1
        let width = fields[0], height = fields[1]
        XCTAssertEqual(bytes.count - position, width * height * 3, "PPM size")
        let image = BGRAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let p = position + (y * width + x) * 3
                image.setPixel(x: x, y: y, b: bytes[p + 2], g: bytes[p + 1], r: bytes[p])
            }
        }
        return image
    }

    /// Rows of grace_hopper_blazeface.csv for one variant: score, x, y, w, h, 12 keypoint coordinates.
    static func referenceRows(variant: String) throws -> [[Double]] {
        let text = try String(contentsOf: try fixtureURL("grace_hopper_blazeface.csv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.first.map(String.init) == variant else { return nil }
            return fields.dropFirst().compactMap { Double($0) }
        }
    }
}
