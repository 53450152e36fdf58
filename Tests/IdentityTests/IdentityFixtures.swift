import Detection
import FaceCore
import Foundation
import Identity
import MediaIO
import TestSupport
import XCTest

/// Fixture files (from scripts/reference/dlib_embeddings.py) and the installed models.
enum IdentityFixtures {
    /// The path of a fixture file.
    static func path(_ file: String) throws -> String {
        let name = (file as NSString).deletingPathExtension, ext = (file as NSString).pathExtension
        guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures") else {
            throw Missing(what: "fixture \(file): run scripts/reference/dlib_embeddings.py")
        }
        return url.path
    }

    /// The models folder holding the face-recognition model.
    static func models() throws -> ModelLocator {
        ModelLocator(explicitDirectory: (try InstalledModels.path(FaceEmbeddingModel.fileName) as NSString)
            .deletingLastPathComponent)
    }

    /// dlib's network, read once for all tests.
    static let embeddingModel = Result { try FaceEmbeddingModel(models: models()) }

    /// Both networks identities are decided with (dlib's and SFace), read once for all tests.
    static let identityModels = Result { try IdentityModels(models: models()) }

    /// The joined samples (`IdentityEmbedder`) of the largest face in each committed photo, by name
    /// (photo_NAME.jpg: hopper_1, hopper_2, astronaut_1, astronaut_2).
    static let joinedPhotoSamples = Result { () throws -> [String: FaceSample] in
        let detector = try CenterFaceDetector(models: models())
        let embedder = try IdentityEmbedder(models: identityModels.get())
        var result: [String: FaceSample] = [:]
        for name in ["hopper_1", "hopper_2", "astronaut_1", "astronaut_2"] {
            let image = try ImageLoader.load(path: try path("photo_\(name).jpg")).image
            let face = try XCTUnwrap(try detector.detect(in: image).max { $0.bounds.area < $1.bounds.area }, name)
            result[name] = try XCTUnwrap(embedder.sample(of: face, in: image), name)
        }
        return result
    }

    /// The pixels of a binary PPM (P6, 8-bit) as RGB bytes, with its size.
    static func ppm(_ file: String) throws -> (rgb: [UInt8], width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try path(file))))
        // Header: "P6", width, height, 255, each followed by one whitespace byte.
        var fields: [String] = [], at = 0
        while fields.count < 4, at < bytes.count {
            var field = ""
            while at < bytes.count, !(bytes[at] == 0x20 || bytes[at] == 0x0A) {
                field.append(Character(UnicodeScalar(bytes[at])))
                at += 1
            }
            at += 1
            if !field.isEmpty { fields.append(field) }
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
              bytes.count - at == width * height * 3 else { throw Missing(what: "a valid PPM in \(file)") }
        return (Array(bytes[at...]), width, height)
    }

    /// dlib's descriptors by chip name (dlib_descriptors.csv).
    static func dlibDescriptors() throws -> [String: [Float]] {
        let text = try String(contentsOfFile: try path("dlib_descriptors.csv"), encoding: .utf8)
        var result: [String: [Float]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",")
            result[String(fields[0])] = fields.dropFirst().compactMap { Float(String($0)) }
        }
        return result
    }

    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "missing \(what)" }
    }
}
