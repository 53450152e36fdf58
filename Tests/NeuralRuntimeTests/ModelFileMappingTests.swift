import Foundation
@testable import NeuralRuntime
import XCTest

/// Model files are mapped, hashed and parsed in place (`ModelBytes`): the mapping holds the file's
/// bytes, the graphs are those read from a copy in memory, and a missing, unreadable, cut, altered
/// or longer file still gives one line naming it.
final class ModelFileMappingTests: XCTestCase {
    private static let files = ["centerface.onnx", "face_detection_short_range.tflite",
                                "dlib_face_recognition_resnet_model_v1.dat"]

    func testTheMappingHoldsTheFilesBytesAndKnownHash() throws {
        for name in Self.files {
            let path = try TestSupport.modelPath(name)
            let mapped = try ModelFileBytes.read(path)
            XCTAssertEqual(mapped.name, name)
            XCTAssertEqual(Data(mapped.bytes.buffer), try Data(contentsOf: URL(fileURLWithPath: path)), name)
            XCTAssertEqual(SHA256.hex(mapped.bytes.buffer), ModelIntegrity.known[name]?.sha256, name)
        }
    }

    func testGraphsFromTheMappingEqualThoseFromMemory() throws {
        func same(_ a: GraphDescription, _ b: GraphDescription, _ name: String) {
            XCTAssertEqual(a.tensors.count, b.tensors.count, name)
            XCTAssertEqual(a.operations.count, b.operations.count, name)
            XCTAssertEqual(a.tensors.filter { $0.constant != nil }.count, b.tensors.filter { $0.constant != nil }.count)
            for (x, y) in zip(a.tensors, b.tensors) {
                XCTAssertEqual(x.name, y.name, name)
                XCTAssertEqual(x.shape, y.shape, "\(name) \(x.name)")
                // Bit patterns: the same bytes give the same floats, NaN or not.
                XCTAssertEqual(x.constant?.map(\.bitPattern), y.constant?.map(\.bitPattern), "\(name) \(x.name)")
            }
        }
        let onnx = try TestSupport.modelPath("centerface.onnx")
        same(try ONNXReader.graph(contentsOf: onnx), try ONNXReader.graph(bytes: try Self.read(onnx), name: "centerface.onnx"),
             "centerface.onnx")
        let tflite = try TestSupport.modelPath("face_detection_short_range.tflite")
        same(try TFLiteReader.graph(contentsOf: tflite),
             try TFLiteReader.graph(bytes: try Self.read(tflite), name: "face_detection_short_range.tflite"), "tflite")
        let dlib = try TestSupport.modelPath("dlib_face_recognition_resnet_model_v1.dat")
        let fromFile = try DlibReader.faceRecognitionResNet(contentsOf: dlib)
        let fromMemory = try DlibReader.faceRecognitionResNet(bytes: try Self.read(dlib), name: fromFile.graph.name)
        same(fromFile.graph, fromMemory.graph, "dlib")
        XCTAssertEqual(fromFile.inputMeans, fromMemory.inputMeans)
        // The first filter, transposed straight from the file into [out][rows][columns][in].
        let filter = try XCTUnwrap(fromFile.graph.tensors.first { $0.constant != nil && $0.shape.count == 4 })
        XCTAssertEqual(filter.shape, [32, 7, 7, 3])
    }

    func testDamagedOrMissingFilesGiveOneLineNamingThem() throws {
        let folder = NSTemporaryDirectory() + "facetrack-mapping-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let genuine = try Self.read(try TestSupport.modelPath("centerface.onnx"))
        func message(_ bytes: [UInt8]?, directory: Bool = false) -> String {
            let sub = folder + "/" + UUID().uuidString
            try? FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            let path = sub + "/centerface.onnx"
            if directory { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
            if let bytes { _ = FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
            do {
                _ = try ONNXReader.graph(contentsOf: path)
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        var altered = genuine
        for i in 0..<5 { altered[altered.count / 2 + i * 1000] ^= 0x55 }
        let cases: [(String, String)] = [
            (message(nil), "cannot read model file /"),
            (message(nil, directory: true), "read error (Is a directory)"),
            (message([]), "model centerface.onnx is not a valid model file: "),
            (message(Array(genuine[..<(genuine.count / 3)])), "model centerface.onnx is not a valid model file: "),
            (message(altered), "sha256"),
            (message(genuine + [0]), "\(genuine.count + 1) bytes, the known centerface.onnx has \(genuine.count)"),
        ]
        for (text, expected) in cases {
            XCTAssertTrue(text.contains(expected), text)
            XCTAssertTrue(text.contains("centerface.onnx"), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
        XCTAssertTrue(cases[0].0.hasSuffix("centerface.onnx: No such file or directory"), cases[0].0)
        XCTAssertEqual(message(genuine), "loaded")
    }

    private static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
