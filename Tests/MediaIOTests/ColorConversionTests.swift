import FaceCore
@testable import MediaIO
import TestSupport
import XCTest

/// BGRA conversion honours the source's colour matrix and range.
final class ColorConversionTests: XCTestCase {
    /// Decodes the first frame of a solid-colour clip and checks the centre pixel.
    private func assertSolidColour(matrix: String, range: String, pixelFormat: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("solid.mkv")
        // qp 0 stores the YUV values exactly, so only the colour conversions are measured.
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=0x3060C0:size=64x48:rate=5", "-frames:v", "2",
                          "-vf", "format=rgb24,scale=out_color_matrix=\(matrix):out_range=\(range),format=\(pixelFormat)",
                          "-colorspace", matrix == "bt709" ? "bt709" : "smpte170m", "-color_range", range,
                          "-c:v", "libx264", "-qp", "0", clip])
        let (image, orientation) = try ImageLoader.load(path: clip)
        XCTAssertEqual(orientation, .up)
        let p = image.pixel(x: 32, y: 24)
        XCTAssertEqual(Double(p.r), 0x30, accuracy: 3, "red, \(matrix) \(range)", file: file, line: line)
        XCTAssertEqual(Double(p.g), 0x60, accuracy: 3, "green, \(matrix) \(range)", file: file, line: line)
        XCTAssertEqual(Double(p.b), 0xC0, accuracy: 3, "blue, \(matrix) \(range)", file: file, line: line)
        XCTAssertEqual(p.a, 255)
    }

    func testBT601LimitedRange() throws { try assertSolidColour(matrix: "bt601", range: "tv", pixelFormat: "yuv420p") }
    func testBT709LimitedRange() throws { try assertSolidColour(matrix: "bt709", range: "tv", pixelFormat: "yuv420p") }
    func testBT601FullRange() throws { try assertSolidColour(matrix: "bt601", range: "pc", pixelFormat: "yuvj420p") }

    /// The first decoded frame of a small clip that ffmpeg writes with `arguments`.
    private func firstFrame(size: String, _ arguments: [String], in folder: TemporaryFolder) throws -> Frame {
        let clip = folder.file("tagged-\(size)-\(arguments.joined(separator: "_")).mkv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:size=\(size):rate=5", "-frames:v", "1"] + arguments
                         + ["-c:v", "ffv1", clip])
        guard case .frame(let decoded)? = try VideoReader(path: clip).next() else { throw MediaError.noFrames(clip) }
        return decoded.frame
    }

    /// BGRA → YUV 4:2:0 → BGRA keeps a flat colour within a few code values, for both matrices and ranges.
    func testRoundTripThroughEncoderFormat() throws {
        let folder = try TemporaryFolder()
        for tags in [["-colorspace", "bt709", "-color_range", "tv"], ["-colorspace", "smpte170m", "-color_range", "tv"],
                     ["-colorspace", "bt709", "-color_range", "pc"]] {
            let yuv = try firstFrame(size: "64x32", ["-pix_fmt", "yuv420p"] + tags, in: folder)
            try yuv.makeWritable()
            let image = BGRAImage(width: 64, height: 32)
            image.fill(b: 200, g: 40, r: 90)
            let converter = PixelConverter()
            try converter.convertFromBGRA(image, into: yuv)
            let back = BGRAImage(width: 64, height: 32)
            try converter.convertToBGRA(yuv, into: back)
            let p = back.pixel(x: 10, y: 10)
            XCTAssertEqual(Double(p.b), 200, accuracy: 3, "\(tags)")
            XCTAssertEqual(Double(p.g), 40, accuracy: 3, "\(tags)")
            XCTAssertEqual(Double(p.r), 90, accuracy: 3, "\(tags)")
        }
    }

    func testUntaggedVideoUsesBT709ForHDAndBT601Below() throws {
        let folder = try TemporaryFolder()
        let hd = try firstFrame(size: "32x1080", ["-pix_fmt", "yuv420p"], in: folder)
        XCTAssertEqual(hd.yuvImage?.encoding.matrix, .bt709)
        let sd = try firstFrame(size: "32x480", ["-pix_fmt", "yuv420p"], in: folder)
        XCTAssertEqual(sd.yuvImage?.encoding.matrix, .bt601)
        let tagged = try firstFrame(size: "32x480", ["-pix_fmt", "yuv420p", "-colorspace", "bt709"], in: folder)
        XCTAssertEqual(tagged.yuvImage?.encoding.matrix, .bt709)
        XCTAssertEqual(tagged.yuvImage?.encoding.range, .limited)
    }
}
