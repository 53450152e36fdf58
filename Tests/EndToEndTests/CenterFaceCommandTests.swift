import Foundation
import TestSupport
import XCTest

/// `detect` and `process` with `--detector centerface` through the built executable, on the
/// public-domain portrait of the DetectionTests fixtures (small input size: debug builds are slow).
final class CenterFaceCommandTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private var portrait: String { root.appendingPathComponent("Tests/DetectionTests/Fixtures/grace_hopper.ppm").path }

    private var models: String {
        ProcessInfo.processInfo.environment["FACETRACK_MODELS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? root.appendingPathComponent("models").path
    }

    private func rows(_ csv: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false) else { return [] }
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header.map(String.init),
                                                 line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    func testDetectFindsThePortraitFace() throws {
        let folder = try TemporaryFolder()
        let csv = folder.file("faces.csv")
        let result = try Tools.run(Tools.facetrack, ["detect", portrait, "--detector", "centerface", "--input-size", "128",
                                                     "--models", models, "--csv", csv])
        XCTAssertEqual(result.status, 0, result.stderr)
        let faces = try rows(csv)
        XCTAssertEqual(faces.count, 1)
        // grace_hopper_centerface.csv: x 75.9, y 42.4, 75.5 x 100.6 at input size 128.
        XCTAssertEqual(Double(faces.first?["x"] ?? "") ?? 0, 75.9, accuracy: 1)
        XCTAssertEqual(Double(faces.first?["height"] ?? "") ?? 0, 100.6, accuracy: 1)
        XCTAssertFalse((faces.first?["left_eye_x"] ?? "").isEmpty)
    }

    /// A 25-pixel face in a 3000 x 2000 photo: 5 pixels at the whole-image pass's 640, found in a
    /// full-resolution tile.
    func testDetectFindsASmallFaceInALargePhotoThroughTiles() throws {
        let folder = try TemporaryFolder()
        let photo = folder.file("large.png"), csv = folder.file("faces.csv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=0x556070:s=3000x2000", "-i", portrait, "-filter_complex",
                          "[1:v]scale=-2:64[p];[0:v][p]overlay=x=1900:y=1300", "-frames:v", "1", photo])
        let result = try Tools.run(Tools.facetrack, ["detect", photo, "--models", models, "--csv", csv])
        XCTAssertEqual(result.status, 0, result.stderr)
        let faces = try rows(csv)
        XCTAssertEqual(faces.count, 1, "\(faces)")
        XCTAssertEqual(Double(faces.first?["x"] ?? "") ?? 0, 1916, accuracy: 8)
        XCTAssertEqual(Double(faces.first?["height"] ?? "") ?? 0, 25, accuracy: 6)
    }

    func testProcessTracksThePortraitFace() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("still.mp4"), csv = folder.file("tracks.csv")
        try Tools.ffmpeg(["-loop", "1", "-i", portrait, "-frames:v", "3", "-r", "5", "-pix_fmt", "yuv420p",
                          "-vf", "scale=218:256", clip])
        let result = try Tools.run(Tools.facetrack, ["process", clip, "--csv", csv, "--detector", "centerface",
                                                     "--input-size", "128", "--models", models])
        XCTAssertEqual(result.status, 0, result.stderr)
        let faces = try rows(csv)
        XCTAssertEqual(faces.count, 3, "one face in each of the 3 frames")
        XCTAssertEqual(faces.map { $0["source"] ?? "" }, ["detected", "detected", "detected"])
        // The track is confirmed after a few frames; earlier rows have an empty id.
        XCTAssertEqual(Set(faces.compactMap { $0["track_id"] }.filter { !$0.isEmpty }), ["1"])
    }

    func testMissingModelIsOneClearLine() throws {
        let folder = try TemporaryFolder()
        let result = try Tools.run(Tools.facetrack, ["detect", portrait, "--detector", "centerface", "--models", folder.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("centerface.onnx"), result.stderr)
    }
}
