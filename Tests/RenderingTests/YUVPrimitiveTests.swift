import FaceCore
import XCTest
@testable import Rendering

final class YUVPrimitiveTests: XCTestCase {
    func testColoursMatchPublishedValues() {
        // 8-bit Y'CbCr of the primaries from the BT.601 and BT.709 tables (limited range), and JPEG's full range.
        let bt601 = YUVEncoding(matrix: .bt601, range: .limited), bt709 = YUVEncoding(matrix: .bt709, range: .limited)
        XCTAssertEqual(bt601.color(.red), YUVColor(y: 81, cb: 90, cr: 240))
        XCTAssertEqual(bt601.color(.green), YUVColor(y: 145, cb: 54, cr: 34))
        XCTAssertEqual(bt601.color(RenderColor(r: 0, g: 0, b: 255)), YUVColor(y: 41, cb: 240, cr: 110))
        XCTAssertEqual(bt709.color(.red), YUVColor(y: 63, cb: 102, cr: 240))
        XCTAssertEqual(bt709.color(.green), YUVColor(y: 173, cb: 42, cr: 26))
        XCTAssertEqual(bt709.color(.white), YUVColor(y: 235, cb: 128, cr: 128))
        XCTAssertEqual(bt709.color(.black), YUVColor(y: 16, cb: 128, cr: 128))
        let jpeg = YUVEncoding(matrix: .bt601, range: .full)
        XCTAssertEqual(jpeg.color(.red), YUVColor(y: 76, cb: 85, cr: 255))
        XCTAssertEqual(jpeg.color(.white), YUVColor(y: 255, cb: 128, cr: 128))
        // 10 bits: limited range scales by 4, full range spans 0-1023 with chroma centred on 512.
        XCTAssertEqual(YUVEncoding(matrix: .bt2020, range: .limited, bitDepth: 10).color(.white), YUVColor(y: 940, cb: 512, cr: 512))
        XCTAssertEqual(YUVEncoding(matrix: .bt2020, range: .limited, bitDepth: 10).color(.black), YUVColor(y: 64, cb: 512, cr: 512))
        XCTAssertEqual(YUVEncoding(matrix: .bt709, range: .full, bitDepth: 10).color(.white), YUVColor(y: 1023, cb: 512, cr: 512))
    }

    func testPremultipliedSamplesBlendLikeRGB() {
        // Half-transparent red over grey 100 blended in YUV equals the blend in RGB, converted.
        let encoding = YUVEncoding(matrix: .bt709, range: .limited)
        let sprite = encoding.samples(r: 128, g: 0, b: 0, alpha: 128), grey = encoding.samples(r: 100, g: 100, b: 100)
        let blended = encoding.samples(r: 128 + 50, g: 50, b: 50)
        let keep = 127.0 / 255
        XCTAssertEqual(sprite.y + keep * grey.y, blended.y, accuracy: 0.5)
        XCTAssertEqual(sprite.cb + keep * grey.cb, blended.cb, accuracy: 0.5)
        XCTAssertEqual(sprite.cr + keep * grey.cr, blended.cr, accuracy: 0.5)
    }

    func testOrientationMapAgreesWithStoredPositions() {
        let (w, h) = (7, 4)
        for orientation in ImageOrientation.allCases {
            let map = OrientationMap(orientation, storedWidth: w, storedHeight: h)
            let upright = orientation.uprightSize(width: w, height: h)
            XCTAssertEqual(map.uprightWidth, upright.width)
            XCTAssertEqual(map.uprightHeight, upright.height)
            for uy in 0..<upright.height {
                for ux in 0..<upright.width {
                    let s = orientation.storedPosition(ux: ux, uy: uy, width: w, height: h)
                    XCTAssertEqual(map.stored(PixelRect(x0: ux, y0: uy, x1: ux + 1, y1: uy + 1)),
                                   PixelRect(x0: s.x, y0: s.y, x1: s.x + 1, y1: s.y + 1), "\(orientation) (\(ux), \(uy))")
                }
            }
            // A wider rectangle maps to the box of its corners' stored pixels.
            let a = orientation.storedPosition(ux: 1, uy: 0, width: w, height: h)
            let b = orientation.storedPosition(ux: 2, uy: 2, width: w, height: h)
            XCTAssertEqual(map.stored(PixelRect(x0: 1, y0: 0, x1: 3, y1: 3)),
                           PixelRect(x0: min(a.x, b.x), y0: min(a.y, b.y), x1: max(a.x, b.x) + 1, y1: max(a.y, b.y) + 1))
        }
    }

    func testSpriteLayoutReadsTheSpriteUpright() {
        // A 3 x 2 image numbered 0...5 row by row: the stored pixel (i, j) must show the image pixel
        // that the stored position of each upright pixel holds.
        let (sw, sh) = (3, 2)
        for orientation in ImageOrientation.allCases {
            let map = OrientationMap(orientation, storedWidth: orientation.swapsAxes ? sh : sw,
                                     storedHeight: orientation.swapsAxes ? sw : sh)
            let layout = map.layout(width: sw, height: sh)
            for uy in 0..<sh {
                for ux in 0..<sw {
                    let s = orientation.storedPosition(ux: ux, uy: uy, width: map.storedWidth, height: map.storedHeight)
                    XCTAssertEqual(layout.origin + s.x * layout.stepX + s.y * layout.stepY, uy * sw + ux, "\(orientation)")
                }
            }
        }
    }

    func testImageRejectsImpossibleDescriptions() {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 64)
        defer { buffer.deallocate() }
        func image(width: Int = 10, height: Int = 4, bitDepth: Int = 8, strides: (Int, Int, Int) = (16, 8, 8),
                   offset: Int = 0) -> YUVImage? {
            YUVImage(width: width, height: height, subsampling: .yuv420,
                     encoding: YUVEncoding(matrix: .bt601, range: .limited, bitDepth: bitDepth),
                     luma: buffer + offset, lumaStride: strides.0, cb: buffer + 1024, cbStride: strides.1,
                     cr: buffer + 2048, crStride: strides.2)
        }
        XCTAssertNotNil(image())
        XCTAssertNotNil(image(strides: (-16, 8, -8)), "bottom-up rows")
        XCTAssertNotNil(image(bitDepth: 10, strides: (20, 10, 10)))
        XCTAssertNil(image(width: 0))
        XCTAssertNil(image(height: -1))
        XCTAssertNil(image(bitDepth: 7))
        XCTAssertNil(image(bitDepth: 17))
        XCTAssertNil(image(strides: (9, 8, 8)), "luma row longer than its stride")
        XCTAssertNil(image(strides: (16, 4, 8)), "chroma rows hold ceil(10 / 2) = 5 samples")
        XCTAssertNil(image(bitDepth: 10, strides: (16, 10, 10)), "two bytes a sample")
        XCTAssertNil(image(bitDepth: 10, strides: (21, 10, 10)), "odd stride for 16-bit samples")
        XCTAssertNil(image(bitDepth: 10, strides: (20, 10, 10), offset: 1), "misaligned 16-bit samples")
    }

    func testPartlyCoveredChromaSamplesGetTheCoveredShare() {
        // A magenta 3 x 1 rectangle at (1, 1) on flat grey 4:2:0: chroma sample (0, 0) has one of
        // its four pixels covered, sample (1, 0) two.
        let encoding = YUVEncoding(matrix: .bt601, range: .limited)
        let frame = YUVTestFrame(width: 6, height: 4, encoding: encoding)
        for plane in 0..<3 {
            for y in 0..<frame.sizes[plane].height {
                for x in 0..<frame.sizes[plane].width { frame.setSample(plane, x, y, plane == 0 ? 100 : 128) }
            }
        }
        let planes = YUVPlanes<UInt8>(frame.image), magenta = encoding.color(.magenta)
        planes.fill(PixelRect(x0: 1, y0: 1, x1: 4, y1: 2), hole: nil, color: magenta)
        XCTAssertEqual(frame.values(0), [100, 100, 100, 100, 100, 100,
                                         100, magenta.y, magenta.y, magenta.y, 100, 100,
                                         100, 100, 100, 100, 100, 100,
                                         100, 100, 100, 100, 100, 100])
        XCTAssertEqual(frame.values(1), [(3 * 128 + magenta.cb + 2) / 4, (2 * 128 + 2 * magenta.cb + 2) / 4, 128,
                                         128, 128, 128])
        XCTAssertEqual(frame.values(2), [(3 * 128 + magenta.cr + 2) / 4, (2 * 128 + 2 * magenta.cr + 2) / 4, 128,
                                         128, 128, 128])
    }

    func testPictureInAnotherEncodingGetsItsOwnColours() {
        let bt601 = YUVEncoding(matrix: .bt601, range: .limited), bt709 = YUVEncoding(matrix: .bt709, range: .full)
        let configuration = OverlayConfiguration(kinds: Set(OverlayKind.allCases), eyeSprite: Sprite.heart(), anonymize: .fill,
                                                 fillColor: .cyan)
        let faces = YUVSameLookTests.faces(width: 80, height: 60)
        let drawn = YUVTestFrame.noise(width: 80, height: 60, encoding: bt709), expected = drawn.copy()
        YUVOverlayRenderer(configuration: configuration, encoding: bt601).render(faces, on: drawn.image)
        YUVOverlayRenderer(configuration: configuration, encoding: bt709).render(faces, on: expected.image)
        XCTAssertEqual((0..<3).map(drawn.values), (0..<3).map(expected.values))
    }
}
