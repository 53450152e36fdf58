import Foundation
import TestSupport
import XCTest

/// A known model file with a few bytes flipped is refused at load (sha256), not run (issue 16).
final class ModelIntegrityTests: XCTestCase {
    func testFlippedBytesInAKnownModelAreRefused() throws {
        let folder = try TemporaryFolder()
        let original = try InstalledModels.path("centerface.onnx")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        for i in 0..<5 { bytes[bytes.count / 2 + i * 1000] ^= 0x55 }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("centerface.onnx")))
        let photo = folder.file("p.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120", "-frames:v", "1", photo])
        let damaged = try Tools.run(Tools.facetrack, ["process", photo, "--csv", folder.file("a.csv"), "--models", folder.path, "--quiet"])
        XCTAssertEqual(damaged.status, 1, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("centerface.onnx is damaged") && damaged.stderr.contains("sha256"), damaged.stderr)
        // The genuine file passes the same check.
        let genuine = try Tools.run(Tools.facetrack, ["process", photo, "--csv", folder.file("b.csv"),
                                                      "--models", (original as NSString).deletingLastPathComponent, "--quiet"])
        XCTAssertEqual(genuine.status, 0, genuine.stderr)
    }
}
