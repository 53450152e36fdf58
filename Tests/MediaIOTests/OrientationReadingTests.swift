import FaceCore
@testable import MediaIO
import TestSupport
import XCTest

/// Rotation metadata and EXIF orientation turn frames upright.
final class OrientationReadingTests: XCTestCase {
    /// A clip tagged with a rotation is made upright exactly as ffmpeg's own autorotation does.
    func testDisplayMatrixMatchesFFmpegAutorotate() throws {
        let folder = try TemporaryFolder()
        let plain = folder.file("plain.mp4"), clip = folder.file("rotated.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=5", "-frames:v", "1", "-c:v", "libx264",
                          "-qp", "0", "-pix_fmt", "yuv444p", plain])
        // FFmpeg 5.1 writes the rotation tag as a display matrix when stream-copying.
        try Tools.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", clip])
        let reference = folder.file("upright.png")
        try Tools.ffmpeg(["-i", clip, "-frames:v", "1", reference])  // ffmpeg applies the rotation itself

        let ours = try ImageLoader.load(path: clip)
        let theirs = try ImageLoader.load(path: reference)
        XCTAssertTrue(ours.orientation.swapsAxes)
        XCTAssertEqual(ours.image.width, 64)
        XCTAssertEqual(ours.image.height, 96)
        XCTAssertEqual(theirs.image.width, 64)
        var worst = 0
        for y in stride(from: 0, to: 96, by: 7) {
            for x in stride(from: 0, to: 64, by: 5) {
                let a = ours.image.pixel(x: x, y: y), b = theirs.image.pixel(x: x, y: y)
                worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            }
        }
        XCTAssertLessThanOrEqual(worst, 6, "pixels differ from ffmpeg's autorotated frame")
    }

    /// EXIF orientation 6 (rotate 90° clockwise to display): the stored top-left corner ends top-right.
    func testEXIFOrientationOfStillImage() throws {
        let folder = try TemporaryFolder()
        let photo = folder.file("photo.jpg")
        // Left half white, right half black: after a clockwise turn the top half is white.
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=white:size=32x48,drawbox=x=16:y=0:w=16:h=48:color=black:t=fill",
                          "-frames:v", "1", "-q:v", "2", photo])
        try Clips.addEXIFOrientation(6, toJPEG: photo)
        let (image, orientation) = try ImageLoader.load(path: photo)
        XCTAssertEqual(orientation, .right)
        XCTAssertEqual(image.width, 48)
        XCTAssertEqual(image.height, 32)
        XCTAssertGreaterThan(image.pixel(x: 24, y: 4).r, 200, "top half should be white")
        XCTAssertLessThan(image.pixel(x: 24, y: 28).r, 50, "bottom half should be black")
    }

    func testPNGAlphaIsKept() throws {
        let folder = try TemporaryFolder()
        let sprite = folder.file("sprite.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=red@0.5:size=8x8,format=rgba", "-frames:v", "1", sprite])
        let (image, _) = try ImageLoader.load(path: sprite)
        XCTAssertEqual(Double(image.pixel(x: 4, y: 4).a), 128, accuracy: 2)
        XCTAssertGreaterThan(image.pixel(x: 4, y: 4).r, 200)
    }
}
