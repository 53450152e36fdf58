import Foundation
import TestSupport
import XCTest

/// `--attributes` and `--landmarks` on `detect` and `process`, with the grace_hopper fixture.
final class AttributeOptionTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var models: String!
    private var portrait: String!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        portrait = tests.appendingPathComponent("DetectionTests/Fixtures/grace_hopper.ppm").path
        let candidates: [String?] = [ProcessInfo.processInfo.environment["FACETRACK_MODELS"],
                          tests.deletingLastPathComponent().appendingPathComponent("models").path]
        guard let found = candidates.compactMap({ $0 }).first(where: {
            FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent("face_landmark.tflite"))
        }) else { throw XCTSkip("models not found: run scripts/setup or set FACETRACK_MODELS") }
        models = found
    }

    /// CSV rows as column-name dictionaries.
    private func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    func testDetectFillsAttributeColumnsAndLandmarks() throws {
        let csv = folder.file("faces.csv"), marks = folder.file("mesh.csv")
        let result = try Tools.run(Tools.facetrack, ["detect", portrait, "--csv", csv, "--attributes", "all",
                                                     "--landmarks", marks, "--models", models])
        XCTAssertEqual(result.status, 0, result.stderr)
        let face = try XCTUnwrap(try rows(csv).first)
        XCTAssertEqual(face["has_smile"], "0")
        XCTAssertEqual(face["left_eye_closed"], "0")
        XCTAssertEqual(face["right_eye_closed"], "0")
        XCTAssertEqual(try XCTUnwrap(Double(face["roll"] ?? "")), 0, accuracy: 6)
        XCTAssertEqual(try XCTUnwrap(Double(face["yaw"] ?? "")), 0, accuracy: 10)
        let points = try rows(marks)
        XCTAssertEqual(points.count, 468)
        XCTAssertEqual(points.last?["point"], "467")
        XCTAssertEqual(points.first?["image"], portrait)
        XCTAssertEqual(folder.contents(), ["faces.csv", "mesh.csv"], "no temporary files left")
    }

    func testProcessFillsOnlyTheSelectedAttributes() throws {
        let clip = folder.file("portrait.mp4"), csv = folder.file("tracks.csv"), plain = folder.file("plain.csv")
        try Tools.ffmpeg(["-loop", "1", "-i", portrait, "-t", "0.4", "-r", "10", "-vf", "pad=256:256:19:0",
                          "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip])
        var result = try Tools.run(Tools.facetrack, ["process", clip, "--csv", csv, "--attributes", "blink,angle",
                                                     "--models", models, "--quiet", "--min-hits", "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let detected = try rows(csv).filter { $0["source"] == "detected" }
        XCTAssertFalse(detected.isEmpty)
        for row in detected {
            XCTAssertEqual(row["left_eye_closed"], "0")
            XCTAssertEqual(row["right_eye_closed"], "0")
            XCTAssertEqual(row["has_smile"], "", "smile not asked")
            XCTAssertNotEqual(row["yaw"], "")
        }
        result = try Tools.run(Tools.facetrack, ["process", clip, "--csv", plain, "--models", models, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for row in try rows(plain) {
            XCTAssertEqual(row["left_eye_closed"], "")
            XCTAssertEqual(row["yaw"], "", "no mesh without --attributes")
        }
    }

    func testMissingMeshModelFailsOnlyWhenAsked() throws {
        let partial = folder.file("models")
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
        for name in ["centerface.onnx", "face_detection_full_range.tflite", "face_detection_short_range.tflite"] {
            try FileManager.default.createSymbolicLink(atPath: (partial as NSString).appendingPathComponent(name),
                                                       withDestinationPath: (models as NSString).appendingPathComponent(name))
        }
        let csv = folder.file("faces.csv")
        var result = try Tools.run(Tools.facetrack, ["detect", portrait, "--csv", csv, "--models", partial])
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try Tools.run(Tools.facetrack, ["detect", portrait, "--csv", folder.file("more.csv"),
                                                 "--attributes", "smile", "--models", partial])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("face_landmark.tflite"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        result = try Tools.run(Tools.facetrack, ["detect", portrait, "--attributes", "smile,wink", "--models", models])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("'wink'"), result.stderr)
    }
}
