import Foundation
import TestSupport
import XCTest

/// Overlay options are checked before any frame is read; odd but valid sprites are accepted.
final class OverlayOptionTests: XCTestCase {
    private func run(_ folder: TemporaryFolder, _ extra: [String]) throws -> Tools.Result {
        let clip = folder.file("clip.mp4")
        if !FileManager.default.fileExists(atPath: clip) { try Clips.pattern(clip, seconds: 0.2, size: "96x64") }
        return try Tools.run(Tools.facetrack, ["process", clip, "-o", folder.file("out.mp4"), "--detector", "none"] + extra)
    }

    func testBadOverlayOptionsFailBeforeProcessing() throws {
        let folder = try TemporaryFolder()
        let text = folder.file("heart.png")
        try "not an image".write(toFile: text, atomically: false, encoding: .utf8)
        let cases: [([String], Int32, String)] = [
            (["--eye-sprite", folder.file("missing.png")], 1, "missing.png: no such file"),
            (["--eye-sprite", text], 1, "heart.png: no video frame could be decoded"),
            (["--overlay", "boxes,sparkles"], 2, "unknown overlay 'sparkles'"),
            (["--box-color", "#12345"], 2, "cannot read colour '#12345'"),
            (["--anonymize", "smudge"], 2, "smudge"),
            (["--mask-scale", "0"], 2, "--mask-scale"),
        ]
        for (options, status, message) in cases {
            let result = try run(folder, options)
            XCTAssertEqual(result.status, status, "\(options): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(options): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("out.mp4")))
        }
    }

    func testSpritesWithoutAlphaAndOfOnePixelAreAccepted() throws {
        let folder = try TemporaryFolder()
        let opaque = folder.file("opaque.jpg"), dot = folder.file("dot.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:size=16x16", "-frames:v", "1", opaque])
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=red:size=1x1,format=rgba", "-frames:v", "1", dot])
        for sprite in [opaque, dot, "heart"] {
            let result = try run(folder, ["--eye-sprite", sprite, "--overlay", "boxes,eyes,mouth,labels"])
            XCTAssertEqual(result.status, 0, "\(sprite): \(result.stderr)")
        }
    }
}
