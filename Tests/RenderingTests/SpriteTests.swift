import FaceCore
import XCTest
@testable import Rendering

final class SpriteTests: XCTestCase {
    /// A straight-alpha sprite image of one colour.
    private func spriteImage(_ width: Int, _ height: Int, b: UInt8, g: UInt8, r: UInt8, a: UInt8) -> BGRAImage {
        let image = BGRAImage(width: width, height: height)
        image.fill(b: b, g: g, r: r, a: a)
        return image
    }

    /// Renders eye sprites for eyes at (10, 10) and (10 + distance, 10) on a grey frame.
    private func renderEyes(_ sprite: Sprite, distance: Double, frame: BGRAImage) {
        let renderer = OverlayRenderer(configuration: OverlayConfiguration(kinds: [.eyes], eyeSprite: sprite))
        renderer.render([TestFrames.face(Rect(x: 0, y: 0, width: 40, height: 40), leftEye: Point(x: 10, y: 10),
                                         rightEye: Point(x: 10 + distance, y: 10))], on: frame)
    }

    func testHalfTransparentSpriteBlendsByHand() throws {
        // Red at alpha 128 over grey 100: R = 255·128/255 + 100·127/255 = 128 + 50, G = B = 50.
        let sprite = try Sprite(image: spriteImage(2, 2, b: 0, g: 0, r: 255, a: 128))
        let frame = TestFrames.gray(30, 20), original = frame.copy()
        renderEyes(sprite, distance: 2, frame: frame)
        // Eye distance 2 → a 2 x 2 sprite centred on each eye: columns 9-10 and 11-12, rows 9-10.
        for x in 9...12 {
            for y in 9...10 { XCTAssertEqual(TestFrames.pixel(frame, x, y), [50, 50, 178, 255], "(\(x), \(y))") }
        }
        XCTAssertEqual(TestFrames.changedPixels(original, frame).count, 8)
    }

    func testOpaqueSpriteCopiesColoursAtOneToOne() throws {
        let image = BGRAImage(width: 2, height: 2)
        image.setPixel(x: 0, y: 0, b: 1, g: 2, r: 3)
        image.setPixel(x: 1, y: 0, b: 4, g: 5, r: 6)
        image.setPixel(x: 0, y: 1, b: 7, g: 8, r: 9)
        image.setPixel(x: 1, y: 1, b: 10, g: 11, r: 12)
        let frame = TestFrames.gray(30, 20)
        renderEyes(try Sprite(image: image), distance: 2, frame: frame)
        XCTAssertEqual(TestFrames.pixel(frame, 9, 9), [1, 2, 3, 255])
        XCTAssertEqual(TestFrames.pixel(frame, 10, 9), [4, 5, 6, 255])
        XCTAssertEqual(TestFrames.pixel(frame, 9, 10), [7, 8, 9, 255])
        XCTAssertEqual(TestFrames.pixel(frame, 12, 10), [10, 11, 12, 255])
    }

    func testScaledSpriteInterpolatesBetweenPixels() throws {
        // A 2 x 1 sprite black | white stretched to 4 px: 0, 64, 191, 255 (taps at -0.25, 0.25, 0.75, 1.25).
        let image = BGRAImage(width: 2, height: 1)
        image.setPixel(x: 0, y: 0, b: 0, g: 0, r: 0)
        image.setPixel(x: 1, y: 0, b: 255, g: 255, r: 255)
        let frame = TestFrames.gray(40, 20)
        renderEyes(try Sprite(image: image), distance: 4, frame: frame)
        // Eye at x = 10: columns 8-11; height 4 · 1/2 = 2 rows (9-10).
        XCTAssertEqual((8...11).map { TestFrames.pixel(frame, $0, 9)[0] }, [0, 64, 191, 255])
        XCTAssertEqual(TestFrames.pixel(frame, 8, 8), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.pixel(frame, 8, 11), TestFrames.grayPixel())
    }

    func testOnePixelSpriteFillsTheEyeSquare() throws {
        let sprite = try Sprite(image: spriteImage(1, 1, b: 10, g: 20, r: 30, a: 255))
        let frame = TestFrames.gray(40, 20), original = frame.copy()
        renderEyes(sprite, distance: 6, frame: frame)
        let changed = TestFrames.changedPixels(original, frame)
        XCTAssertEqual(changed.count, 2 * 6 * 6)
        XCTAssertTrue(changed.allSatisfy { TestFrames.pixel(frame, $0.x, $0.y) == [10, 20, 30, 255] })
    }

    func testStraightAlphaIsPremultipliedOnLoad() throws {
        let sprite = try Sprite(image: spriteImage(1, 1, b: 200, g: 100, r: 50, a: 0))
        XCTAssertEqual(sprite.premultiplied, [0, 0, 0, 0])
        let half = try Sprite(image: spriteImage(1, 1, b: 200, g: 100, r: 50, a: 51))
        XCTAssertEqual(half.premultiplied, [40, 20, 10, 51])
        XCTAssertThrowsError(try Sprite(image: BGRAImage(width: 0, height: 3)))
    }

    func testHeartIsRedOpaqueInsideTransparentOutsideAndSymmetric() {
        let n = 64, heart = Sprite.heart(size: n)
        XCTAssertEqual(heart.width, n)
        func alpha(_ x: Int, _ y: Int) -> UInt8 { heart.premultiplied[(y * n + x) * 4 + 3] }
        XCTAssertEqual(alpha(n / 2, n / 2), 255)
        XCTAssertGreaterThan(heart.premultiplied[(n / 2 * n + n / 2) * 4 + 2], 200)
        for (x, y) in [(0, 0), (n - 1, 0), (n / 2, 2), (0, n - 1), (n - 1, n - 1)] { XCTAssertEqual(alpha(x, y), 0) }
        // The lobes are high on both sides, the dip between them and the point at the bottom are narrow.
        XCTAssertEqual(alpha(n / 4, n / 4), 255)
        XCTAssertEqual(alpha(3 * n / 4, n / 4), 255)
        XCTAssertEqual(alpha(n / 4, 7 * n / 8), 0)
        var partial = 0
        for y in 0..<n {
            for x in 0..<n {
                XCTAssertEqual(alpha(x, y), alpha(n - 1 - x, y))
                if alpha(x, y) > 0 && alpha(x, y) < 255 { partial += 1 }
            }
        }
        XCTAssertGreaterThan(partial, n, "edges are anti-aliased")
        XCTAssertNotNil(Sprite.builtIn(named: "Heart"))
        XCTAssertNil(Sprite.builtIn(named: "smiley.png"))
    }

    func testSpritesClipAtFrameEdges() {
        let frame = TestFrames.gray(20, 20)
        let renderer = OverlayRenderer(configuration: OverlayConfiguration(kinds: [.eyes], eyeSprite: Sprite.heart(size: 32)))
        renderer.render([TestFrames.face(Rect(x: -5, y: -5, width: 30, height: 30), leftEye: Point(x: 0, y: 0),
                                         rightEye: Point(x: 19.5, y: 19.5))], on: frame)
        XCTAssertTrue(TestFrames.paddingIsClean(frame))
        XCTAssertNotEqual(TestFrames.pixel(frame, 19, 19), TestFrames.grayPixel())
    }
}
