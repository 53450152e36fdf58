import Dispatch
import FaceCore
import XCTest
@testable import Rendering

final class RobustnessTests: XCTestCase {
    /// Every overlay and every anonymisation mode, with and without a sprite.
    private var everything: [OverlayRenderer] {
        AnonymizeMode.allCases.flatMap { mode in
            [nil, Sprite.heart(size: 9)].map { sprite in
                OverlayRenderer(configuration: OverlayConfiguration(kinds: Set(OverlayKind.allCases), eyeSprite: sprite,
                                                                    anonymize: mode,
                                                                    maskImage: mode == .image ? MaskImage(Sprite.heart(size: 20)) : nil))
            }
        }
    }

    func testBadCoordinatesAreSkippedOrClippedWithoutWritingOutsideRows() {
        for renderer in everything {
            let image = TestFrames.noise(37, 23)
            renderer.render(TestFrames.oddFaces, on: image)
            XCTAssertTrue(TestFrames.paddingIsClean(image))
        }
    }

    func testNonFiniteBoxesAloneChangeNothing() {
        let faces = [TestFrames.face(Rect(x: .nan, y: 10, width: 20, height: 20), leftEye: Point(x: 5, y: 5)),
                     TestFrames.face(Rect(x: 10, y: 10, width: 20, height: -.infinity))]
        for renderer in everything {
            let image = TestFrames.noise(40, 30), original = image.copy()
            renderer.render(faces, on: image)
            XCTAssertTrue(TestFrames.identical(image, original))
        }
    }

    func testConcurrentRenderingMatchesSerial() {
        let renderer = OverlayRenderer(configuration: OverlayConfiguration(kinds: Set(OverlayKind.allCases),
                                                                           eyeSprite: Sprite.heart(size: 32),
                                                                           anonymize: .blur))
        let faces = (0..<4).map { i in
            TestFrames.face(Rect(x: 10 + Double(i) * 40, y: 40, width: 30, height: 30), trackID: i,
                            leftEye: Point(x: 18 + Double(i) * 40, y: 50), rightEye: Point(x: 32 + Double(i) * 40, y: 50))
        }
        let expected = TestFrames.noise(180, 100)
        renderer.render(faces, on: expected)
        let frames = (0..<8).map { _ in TestFrames.noise(180, 100) }
        DispatchQueue.concurrentPerform(iterations: frames.count) { i in renderer.render(faces, on: frames[i]) }
        for frame in frames { XCTAssertTrue(TestFrames.identical(frame, expected)) }
    }
}
