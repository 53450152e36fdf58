import FaceCore
import XCTest
@testable import Rendering

/// `--mask-shape box`, `--anonymize image:FILE` and the fill colour, pixel by pixel. A 80 x 80
/// face at (60, 60) at the default mask scale 1.3 has its mask box centred on (100, 100) with
/// radius 52: the pixels whose centres lie inside are columns and rows 48 through 151.
final class MaskShapeAndImageTests: XCTestCase {
    private let face = TestFrames.face(Rect(x: 60, y: 60, width: 80, height: 80))
    private let maskBox = 48..<152

    private func render(_ configuration: OverlayConfiguration, on image: BGRAImage) {
        OverlayRenderer(configuration: configuration).render([face], on: image)
    }

    /// An image of `width` x `height` with every pixel `pixel(x, y)` (b, g, r, a; straight alpha).
    private func picture(_ width: Int, _ height: Int,
                         _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> BGRAImage {
        let image = BGRAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let (b, g, r, a) = pixel(x, y)
                image.setPixel(x: x, y: y, b: b, g: g, r: r, a: a)
            }
        }
        return image
    }

    func testBoxShapeFillsTheWholeMaskBoxAndTheEllipseLeavesItsCorners() {
        let color = RenderColor(r: 10, g: 220, b: 30), filled: [UInt8] = [30, 220, 10, 255]
        let box = TestFrames.gray(200, 200), ellipse = TestFrames.gray(200, 200)
        render(OverlayConfiguration(kinds: [], anonymize: .fill, fillColor: color, maskShape: .box), on: box)
        render(OverlayConfiguration(kinds: [], anonymize: .fill, fillColor: color), on: ellipse)
        for y in 0..<200 {
            for x in 0..<200 {
                let inBox = maskBox.contains(x) && maskBox.contains(y)
                XCTAssertEqual(TestFrames.pixel(box, x, y), inBox ? filled : TestFrames.grayPixel(), "box (\(x), \(y))")
                let dx = (Double(x) + 0.5 - 100) / 52, dy = (Double(y) + 0.5 - 100) / 52
                XCTAssertEqual(TestFrames.pixel(ellipse, x, y), dx * dx + dy * dy <= 1 ? filled : TestFrames.grayPixel(),
                               "ellipse (\(x), \(y))")
            }
        }
        // The corners of the box: in the box mask, outside the ellipse.
        XCTAssertEqual(TestFrames.pixel(ellipse, 49, 49), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.pixel(box, 49, 49), filled)
    }

    func testBoxShapeHoldsForBlurAndPixelateToo() {
        for mode in [AnonymizeMode.blur, .pixelate] {
            let image = TestFrames.noise(200, 200), original = image.copy()
            render(OverlayConfiguration(kinds: [], anonymize: mode, maskShape: .box), on: image)
            let changed = TestFrames.changedPixels(original, image)
            XCTAssertFalse(changed.isEmpty, "\(mode)")
            XCTAssertTrue(changed.allSatisfy { maskBox.contains($0.x) && maskBox.contains($0.y) }, "\(mode)")
            // A corner pixel of the box changes (noise blurred or averaged); it is outside the ellipse.
            XCTAssertTrue(changed.contains { $0.x < 52 && $0.y < 52 }, "\(mode) reaches the box's corner")
        }
    }

    func testRendererAndCoverageAgreeOnEveryPixel() {
        // The renderer's fill and `EllipseMask.span` (what `facetrack eval` counts) pick the same pixels.
        let rect = Rect(x: 13.3, y: 7.9, width: 41.7, height: 33.2)
        for shape in MaskShape.allCases {
            let image = TestFrames.gray(80, 60)
            OverlayRenderer(configuration: OverlayConfiguration(kinds: [], anonymize: .fill, maskScale: 1.2, maskShape: shape))
                .render([TestFrames.face(rect)], on: image)
            guard let mask = EllipseMask(face: rect, scale: 1.2, shape: shape) else { return XCTFail("mask") }
            let all = PixelRect(x0: 0, y0: 0, x1: 80, y1: 60)
            for y in 0..<60 {
                let span = mask.span(row: y, within: all)
                for x in 0..<80 {
                    let inside = span.map { x >= $0.lo && x < $0.hi } ?? false
                    XCTAssertEqual(TestFrames.pixel(image, x, y) == [0, 0, 0, 255], inside, "\(shape) (\(x), \(y))")
                }
            }
        }
    }

    func testHalfTransparentPictureMixesWithTheFrame() throws {
        // Straight colour (200, 100, 0) at alpha 128 over grey 50: each channel c·a + 50·(1 − a).
        let image = TestFrames.gray(200, 200, level: 50)
        let maskImage = try MaskImage(image: picture(4, 4) { _, _ in (0, 100, 200, 128) })
        render(OverlayConfiguration(kinds: [], anonymize: .image, maskImage: maskImage), on: image)
        let a = 128.0 / 255
        let expected = [0 * a + 50 * (1 - a), 100 * a + 50 * (1 - a), 200 * a + 50 * (1 - a)]
        for (x, y) in [(48, 48), (100, 100), (151, 151), (151, 48)] {
            let p = TestFrames.pixel(image, x, y)
            for c in 0..<3 { XCTAssertEqual(Double(p[c]), expected[c], accuracy: 1, "(\(x), \(y)) channel \(c)") }
        }
        for (x, y) in [(47, 100), (152, 100), (100, 47), (100, 152)] {
            XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.grayPixel(50), "(\(x), \(y)) is outside the mask box")
        }
    }

    func testPictureIsScaledToTheMaskBoxAndItsTransparentPartsShowTheFrame() throws {
        // 64 x 64: the left half red, the right half blue, the top-left quarter transparent.
        let maskImage = try MaskImage(image: picture(64, 64) { x, y in
            x < 32 ? (0, 0, 255, y < 32 ? 0 : 255) : (255, 0, 0, 255)
        })
        let image = TestFrames.gray(200, 200)
        render(OverlayConfiguration(kinds: [], anonymize: .image, maskImage: maskImage), on: image)
        let red: [UInt8] = [0, 0, 255, 255], blue: [UInt8] = [255, 0, 0, 255]
        XCTAssertEqual(TestFrames.pixel(image, 48, 151), red, "bottom-left corner of the mask box")
        XCTAssertEqual(TestFrames.pixel(image, 98, 120), red)
        XCTAssertEqual(TestFrames.pixel(image, 102, 60), blue)
        XCTAssertEqual(TestFrames.pixel(image, 151, 48), blue, "top-right corner of the mask box")
        XCTAssertEqual(TestFrames.pixel(image, 60, 60), TestFrames.grayPixel(), "transparent quarter")
        for (x, y) in [(47, 120), (152, 60), (120, 47), (60, 152)] {
            XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.grayPixel(), "(\(x), \(y)) is outside the mask box")
        }
    }

    func testPictureLevelsAreHalvingsAndTheSmallestThatCoversTheBoxIsDrawn() throws {
        // 200 x 100 of a 2 x 2 checker of grey levels 0 and 200 (opaque): every halving averages to 100.
        let maskImage = try MaskImage(image: picture(200, 100) { x, y in
            let v: UInt8 = (x + y) % 2 == 0 ? 0 : 200
            return (v, v, v, 255)
        })
        XCTAssertEqual(maskImage.levels.map(\.width), [200, 100, 50, 25, 13, 7])
        XCTAssertEqual(maskImage.levels.map(\.height), [100, 50, 25, 13, 7, 4])
        XCTAssertTrue(maskImage.levels.dropFirst().allSatisfy { level in
            stride(from: 0, to: level.premultiplied.count, by: 4).allSatisfy { level.premultiplied[$0] == 100 }
        })
        XCTAssertEqual(maskImage.level(width: 30, height: 20).width, 50)
        XCTAssertEqual(maskImage.level(width: 26, height: 13).width, 50, "25 columns are too few for 26")
        XCTAssertEqual(maskImage.level(width: 5, height: 3).width, 7)
        XCTAssertEqual(maskImage.level(width: 500, height: 10).width, 200, "nothing is large enough: the largest")
        // Drawn on a 40 x 40 mask, the checker shows as its mean, not as aliased stripes.
        let image = TestFrames.gray(200, 200)
        OverlayRenderer(configuration: OverlayConfiguration(kinds: [], anonymize: .image, maskScale: 1, maskImage: maskImage))
            .render([TestFrames.face(Rect(x: 80, y: 80, width: 40, height: 40))], on: image)
        for x in 82..<118 { XCTAssertEqual(Double(TestFrames.pixel(image, x, 100)[1]), 100, accuracy: 2, "x \(x)") }
    }

    func testImageModeWithoutAPictureFillsTheMask() {
        let image = TestFrames.gray(200, 200)
        render(OverlayConfiguration(kinds: [], anonymize: .image, fillColor: RenderColor(r: 0, g: 0, b: 9)), on: image)
        XCTAssertEqual(TestFrames.pixel(image, 100, 100), [9, 0, 0, 255])
        XCTAssertEqual(TestFrames.pixel(image, 49, 49), [9, 0, 0, 255], "the whole box, as a picture would cover it")
    }

    func testCountedShapeOfAnImageMaskIsItsBox() {
        XCTAssertEqual(OverlayConfiguration(anonymize: .image).countedMaskShape, .box)
        XCTAssertEqual(OverlayConfiguration(anonymize: .blur).countedMaskShape, .ellipse)
        XCTAssertEqual(OverlayConfiguration(anonymize: .fill, maskShape: .box).countedMaskShape, .box)
    }
}
