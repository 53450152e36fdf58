import Foundation
import TestSupport
import XCTest

/// Odd frame sizes and still-image outputs (issue 16).
final class FrameFormatTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }

    private func probe(_ path: String, _ entries: String) throws -> String {
        try Tools.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=\(entries)", "-of", "csv=p=0", path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testOddSizedVideoEncodesWithEveryCodec() throws {
        let clip = folder.file("odd.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=161x119:rate=25", "-t", "0.2", "-pix_fmt", "yuv420p",
                          "-c:v", "libx264", clip])
        for codec in ["libx264", "libx265", "mpeg4"] {
            let out = folder.file("out-\(codec).mp4")
            let result = try Tools.run(Tools.facetrack, ["process", clip, "-o", out, "--codec", codec, "--detector", "none", "--quiet"])
            XCTAssertEqual(result.status, 0, "\(codec): \(result.stderr)")
            XCTAssertEqual(try probe(out, "width,height"), "160,118", "\(codec): the odd column and row are cropped")
        }
    }

    func testOddSizedPhotoToVideo() throws {
        let photo = folder.file("odd.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=125x75", "-frames:v", "1", photo])
        let result = try Tools.run(Tools.facetrack, ["process", photo, "-o", folder.file("odd.mp4"), "--detector", "none", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testPhotoToJPEGAndPNGIsARealUprightStillImage() throws {
        let photo = folder.file("photo.jpg")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90", "-frames:v", "1", photo])
        try Clips.addEXIFOrientation(6, toJPEG: photo)  // stored landscape, shown portrait
        for (name, codec) in [("out.jpg", "mjpeg"), ("out.png", "png")] {
            let out = folder.file(name)
            let result = try Tools.run(Tools.facetrack, ["process", photo, "-o", out, "--detector", "none", "--quiet"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try probe(out, "codec_name,width,height"), "\(codec),90,160", "\(name): \(codec), upright")
        }
        let jpeg = try probe(folder.file("out.jpg"), "color_range")
        XCTAssertEqual(jpeg, "pc", "JPEG is full range")
    }

    func testBatchWritesStillImagesForPhotos() throws {
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90", "-frames:v", "1", folder.file("in/p.jpg")])
        let result = try Tools.run(Tools.facetrack, ["batch", folder.file("in"), "--out", folder.file("out"), "--detector", "none", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try probe(folder.file("out/p.jpg"), "codec_name"), "mjpeg")
    }

    func testVideoToStillImageExtensionIsRefused() throws {
        let clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 0.2, size: "160x120")
        let result = try Tools.run(Tools.facetrack, ["process", clip, "-o", folder.file("out.jpg"), "--detector", "none", "--quiet"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("out.jpg: a .jpg output holds one still image"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("out.jpg")))
    }
}
