import CFFmpeg
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

    /// BGRA → YUV 4:2:0 → BGRA keeps a flat colour within a few code values, for both matrices and ranges.
    func testRoundTripThroughEncoderFormat() throws {
        for (space, range) in [(AVCOL_SPC_BT709, AVCOL_RANGE_MPEG), (AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG),
                               (AVCOL_SPC_BT709, AVCOL_RANGE_JPEG)] {
            let image = BGRAImage(width: 64, height: 32)
            image.fill(b: 200, g: 40, r: 90)
            let yuv = try Frame(width: 64, height: 32, format: AV_PIX_FMT_YUV420P)
            yuv.pointer.pointee.colorspace = space
            yuv.pointer.pointee.color_range = range
            let converter = PixelConverter()
            try converter.convertFromBGRA(image, into: yuv)
            let back = BGRAImage(width: 64, height: 32)
            try converter.convertToBGRA(yuv, into: back)
            let p = back.pixel(x: 10, y: 10)
            XCTAssertEqual(Double(p.b), 200, accuracy: 3, "\(space) \(range)")
            XCTAssertEqual(Double(p.g), 40, accuracy: 3, "\(space) \(range)")
            XCTAssertEqual(Double(p.r), 90, accuracy: 3, "\(space) \(range)")
        }
    }

    func testUntaggedVideoUsesBT709ForHDAndBT601Below() {
        XCTAssertEqual(PixelConverter.swsColorspace(AVCOL_SPC_UNSPECIFIED, height: 1080), SWS_CS_ITU709)
        XCTAssertEqual(PixelConverter.swsColorspace(AVCOL_SPC_UNSPECIFIED, height: 480), SWS_CS_ITU601)
        XCTAssertEqual(PixelConverter.swsColorspace(AVCOL_SPC_BT709, height: 480), SWS_CS_ITU709)
    }
}
