import FaceCore
import XCTest
@testable import Rendering

final class BoxOverlayTests: XCTestCase {
    private let boxesOnly = OverlayRenderer(configuration: OverlayConfiguration(kinds: [.boxes]))

    func testBoxLandsOnExactPixelsWithThickness() {
        let image = TestFrames.gray(1000, 1000), original = image.copy()
        XCTAssertEqual(OverlayRenderer.boxThickness(width: 1000, height: 1000), 3)
        boxesOnly.render([TestFrames.face(Rect(x: 100, y: 200, width: 300, height: 150))], on: image)
        // Outline 3 px thick on the inside of [100, 400) x [200, 350).
        for x in [100, 250, 399] {
            for y in [200, 201, 202, 347, 348, 349] { XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.red) }
        }
        for y in [203, 275, 346] {
            for x in [100, 102, 397, 399] { XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.red) }
            for x in [99, 103, 396, 400] { XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.grayPixel()) }
        }
        XCTAssertEqual(TestFrames.pixel(image, 100, 199), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.pixel(image, 100, 350), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.pixel(image, 250, 203), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.changedPixels(original, image).count, 300 * 150 - 294 * 144)
    }

    func testThicknessIsAtLeastTwoPixels() {
        XCTAssertEqual(OverlayRenderer.boxThickness(width: 320, height: 180), 2)
        XCTAssertEqual(OverlayRenderer.boxThickness(width: 3840, height: 2160), 6)
        let image = TestFrames.gray(100, 100)
        boxesOnly.render([TestFrames.face(Rect(x: 10, y: 10, width: 50, height: 50))], on: image)
        XCTAssertEqual(TestFrames.pixel(image, 30, 11), TestFrames.red)
        XCTAssertEqual(TestFrames.pixel(image, 30, 12), TestFrames.grayPixel())
    }

    func testSmilingFaceIsGreenAndOverrideWins() {
        let image = TestFrames.gray(200, 200)
        boxesOnly.render([TestFrames.face(Rect(x: 10, y: 10, width: 50, height: 50), smile: true),
                          TestFrames.face(Rect(x: 100, y: 10, width: 50, height: 50), smile: false)], on: image)
        XCTAssertEqual(TestFrames.pixel(image, 10, 30), TestFrames.green)
        XCTAssertEqual(TestFrames.pixel(image, 100, 30), TestFrames.red)

        let color = RenderColor(r: 0x12, g: 0x34, b: 0x56)
        let overridden = OverlayRenderer(configuration: OverlayConfiguration(kinds: [.boxes], boxColor: color))
        overridden.render([TestFrames.face(Rect(x: 10, y: 100, width: 50, height: 50), smile: true)], on: image)
        XCTAssertEqual(TestFrames.pixel(image, 10, 130), [0x56, 0x34, 0x12, 255])
    }

    func testBoxesClipAtAllFourEdges() {
        // Sticking out top-left: only the bottom and right sides show.
        var image = TestFrames.gray(300, 300)
        boxesOnly.render([TestFrames.face(Rect(x: -50, y: -50, width: 200, height: 200))], on: image)
        XCTAssertEqual(TestFrames.pixel(image, 0, 148), TestFrames.red)
        XCTAssertEqual(TestFrames.pixel(image, 0, 149), TestFrames.red)
        XCTAssertEqual(TestFrames.pixel(image, 149, 0), TestFrames.red)
        XCTAssertEqual(TestFrames.pixel(image, 0, 0), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.pixel(image, 0, 150), TestFrames.grayPixel())

        // Sticking out bottom-right: only the top and left sides show, up to the last pixel.
        image = TestFrames.gray(300, 300)
        boxesOnly.render([TestFrames.face(Rect(x: 200, y: 200, width: 200, height: 200))], on: image)
        XCTAssertEqual(TestFrames.pixel(image, 299, 200), TestFrames.red)
        XCTAssertEqual(TestFrames.pixel(image, 200, 299), TestFrames.red)
        XCTAssertEqual(TestFrames.pixel(image, 299, 299), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.pixel(image, 299, 199), TestFrames.grayPixel())

        // One pixel bigger than the frame all round: the outline covers exactly the outer pixel ring.
        image = TestFrames.gray(300, 300)
        boxesOnly.render([TestFrames.face(Rect(x: -1, y: -1, width: 302, height: 302))], on: image)
        for (x, y) in [(0, 150), (299, 150), (150, 0), (150, 299), (0, 0), (299, 299)] {
            XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.red, "(\(x), \(y))")
        }
        for (x, y) in [(1, 150), (298, 150), (150, 1), (150, 298)] {
            XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.grayPixel(), "(\(x), \(y))")
        }

        // Far bigger than the frame: every side is outside, nothing changes.
        image = TestFrames.gray(300, 300)
        let original = image.copy()
        boxesOnly.render([TestFrames.face(Rect(x: -100, y: -100, width: 500, height: 500))], on: image)
        XCTAssertTrue(TestFrames.identical(image, original))
    }

    func testTinyFacesDrawOnePixel() {
        let image = TestFrames.gray(50, 50), original = image.copy()
        boxesOnly.render([TestFrames.face(Rect(x: 10.2, y: 10.2, width: 1, height: 1)),
                          TestFrames.face(Rect(x: 30.1, y: 30.1, width: 0.3, height: 0.3))], on: image)
        let changed = TestFrames.changedPixels(original, image)
        XCTAssertEqual(changed.map(\.x), [10, 30])
        XCTAssertEqual(changed.map(\.y), [10, 30])
    }

    func testEyeMarkersAreMagentaSquaresSizedByEyeDistance() {
        let image = TestFrames.gray(400, 400), original = image.copy()
        let renderer = OverlayRenderer(configuration: OverlayConfiguration(kinds: [.eyes]))
        renderer.render([TestFrames.face(Rect(x: 150, y: 150, width: 200, height: 200),
                                         leftEye: Point(x: 200, y: 200), rightEye: Point(x: 300, y: 200))], on: image)
        // Eye distance 100 → 15 px squares; [192.5, 207.5) rounds to [193, 208).
        for (x, y) in [(193, 193), (207, 207), (293, 193), (307, 207)] {
            XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.magenta, "(\(x), \(y))")
        }
        for (x, y) in [(192, 200), (208, 200), (200, 192), (200, 208)] {
            XCTAssertEqual(TestFrames.pixel(image, x, y), TestFrames.grayPixel(), "(\(x), \(y))")
        }
        XCTAssertEqual(TestFrames.changedPixels(original, image).count, 2 * 15 * 15)
    }

    func testMouthMarkerAndMissingEye() {
        let image = TestFrames.gray(400, 400), original = image.copy()
        let renderer = OverlayRenderer(configuration: OverlayConfiguration(kinds: [.eyes, .mouth]))
        // One eye only: markers are sized from 40% of the box width (80 px → 12 px square).
        renderer.render([TestFrames.face(Rect(x: 100, y: 100, width: 200, height: 200),
                                         leftEye: Point(x: 150, y: 150), mouth: Point(x: 200, y: 250))], on: image)
        XCTAssertEqual(TestFrames.pixel(image, 150, 150), TestFrames.magenta)
        XCTAssertEqual(TestFrames.pixel(image, 200, 250), [255, 255, 0, 255])
        // 12 x 12 eye square plus a 32 x 8 mouth bar.
        XCTAssertEqual(TestFrames.changedPixels(original, image).count, 12 * 12 + 32 * 8)
    }

    func testZeroFacesLeaveFrameByteIdentical() {
        let configurations = [
            OverlayConfiguration(kinds: Set(OverlayKind.allCases)),
            OverlayConfiguration(kinds: [.eyes], eyeSprite: Sprite.heart(size: 16), anonymize: .blur),
            OverlayConfiguration(anonymize: .pixelate), OverlayConfiguration(anonymize: .fill),
        ]
        for configuration in configurations {
            let image = TestFrames.noise(97, 61), original = image.copy()
            OverlayRenderer(configuration: configuration).render([], on: image)
            XCTAssertTrue(TestFrames.identical(image, original))
        }
    }
}
