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

    /// A copy of `width` x `height` pixels of `image` from (`x`, `y`), clipped to the image.
    static func crop(_ image: BGRAImage, x: Int, y: Int, width: Int, height: Int) -> BGRAImage {
        let crop = BGRAImage(width: width, height: height)
        for row in 0..<height {
            let sourceY = min(max(y + row, 0), image.height - 1)
            for column in 0..<width {
                let sourceX = min(max(x + column, 0), image.width - 1)
                for channel in 0..<4 { crop.row(row)[column * 4 + channel] = image.row(sourceY)[sourceX * 4 + channel] }
            }
        }
        crop.contentsDidChange()
        return crop
    }

    /// Pictures of a few sizes cut from `image` (218 x 256): three 96 x 96 crops (one on the face),
    /// two 128 x 96, the whole image and one too small to hold a face, for the batch tests.
    static func batchPictures(_ image: BGRAImage) -> [BGRAImage] {
        [crop(image, x: 60, y: 40, width: 96, height: 96), crop(image, x: 0, y: 0, width: 96, height: 96),
         crop(image, x: 40, y: 20, width: 128, height: 96), image, crop(image, x: 100, y: 150, width: 96, height: 96),
         crop(image, x: 10, y: 60, width: 20, height: 20), crop(image, x: 30, y: 50, width: 128, height: 96)]
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

    /// Rows of grace_hopper_blazeface.csv for one variant: score, x, y, w, h, 12 keypoint coordinates
    /// (or of another reference CSV whose first column is the key, e.g. the CenterFace input size).
    static func referenceRows(variant: String, file: String = "grace_hopper_blazeface.csv") throws -> [[Double]] {
        let text = try String(contentsOf: try fixtureURL(file), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.first.map(String.init) == variant else { return nil }
            return fields.dropFirst().compactMap { Double($0) }
        }
    }
}
