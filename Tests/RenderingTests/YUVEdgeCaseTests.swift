import Dispatch
import FaceCore
import XCTest
@testable import Rendering

final class YUVEdgeCaseTests: XCTestCase {
    /// Every overlay kind with each anonymisation mode, squares or the heart on the eyes.
    private static let everything: [OverlayConfiguration] = AnonymizeMode.allCases.flatMap { mode in
        [nil, Sprite.heart(size: 9)].map { sprite in
            OverlayConfiguration(kinds: Set(OverlayKind.allCases), eyeSprite: sprite, anonymize: mode,
                                 fillColor: RenderColor(r: 250, g: 60, b: 200),
                                 maskImage: mode == .image ? MaskImage(Sprite.heart(size: 33)) : nil)
        }
    }

    /// Faces that touch and overlap, a tiny one, one partly outside the frame and one larger than it.
    private static func crowd(width: Int, height: Int) -> [TrackedFace] {
        [TestFrames.face(Rect(x: 10.5, y: 21.5, width: 40, height: 44), trackID: 1, smile: true,
                         leftEye: Point(x: 22, y: 36), rightEye: Point(x: 39, y: 37), mouth: Point(x: 30, y: 55)),
         TestFrames.face(Rect(x: 50.5, y: 25, width: 36, height: 40), trackID: 22,
                         leftEye: Point(x: 60, y: 38), rightEye: Point(x: 76, y: 38), mouth: Point(x: 68, y: 55)),
         TestFrames.face(Rect(x: 70.3, y: 50.7, width: 30, height: 33), trackID: 333, smile: true,
                         leftEye: Point(x: 78, y: 60), rightEye: Point(x: 92, y: 61), mouth: Point(x: 85, y: 75)),
         TestFrames.face(Rect(x: 30.4, y: 80.6, width: 3, height: 2), trackID: 4,
                         leftEye: Point(x: 31, y: 81), rightEye: Point(x: 32.5, y: 81), mouth: Point(x: 31.7, y: 82)),
         TestFrames.face(Rect(x: Double(width) - 20.3, y: Double(height) - 15.8, width: 40, height: 40), trackID: 5,
                         leftEye: Point(x: Double(width) - 8, y: Double(height) - 4), rightEye: Point(x: Double(width) + 8, y: Double(height) - 4))]
    }

    func testCrowdedFacesStayCloseToBGRA() {
        // Where overlays of different faces meet inside one chroma footprint, each later one mixes
        // over the sample as if the earlier were spread evenly over it: luma stays exact, and only
        // those meeting samples may be off by more than rounding.
        for subsampling in ChromaSubsampling.allCases {
            let frame = YUVTestFrame.noise(width: 121, height: 101, subsampling: subsampling,
                                           encoding: YUVEncoding(matrix: .bt709, range: .limited))
            for orientation in ImageOrientation.allCases {
                let size = orientation.uprightSize(width: frame.width, height: frame.height)
                let faces = YUVEdgeCaseTests.crowd(width: size.width, height: size.height)
                for configuration in YUVEdgeCaseTests.everything {
                    let context = "\(subsampling), \(orientation), \(configuration.anonymize!), sprite \(configuration.eyeSprite != nil)"
                    let result = YUVComparison(configuration, faces: faces, frame: frame, orientation: orientation)
                    XCTAssertLessThanOrEqual(result.luma, 2, context)
                    XCTAssertLessThanOrEqual(result.chromaSamplesOff * 20, result.chromaSamplesDrawn, context)
                    result.checkPlacement(context)
                }
            }
        }
    }

    func testFacesLargerThanTheFrameMatchBGRA() {
        let frame = YUVTestFrame.noise(width: 97, height: 71, encoding: YUVEncoding(matrix: .bt601, range: .full))
        for orientation in [ImageOrientation.up, .right, .down, .left] {
            let size = orientation.uprightSize(width: frame.width, height: frame.height)
            let w = Double(size.width), h = Double(size.height)
            for bounds in [Rect(x: -30.3, y: -45.6, width: w + 70, height: h + 90), Rect(x: -2 * w, y: -h, width: 5 * w, height: 3 * h)] {
                let face = TestFrames.face(bounds, trackID: 9, leftEye: Point(x: 0.3 * w, y: 0.55 * h),
                                           rightEye: Point(x: 0.7 * w, y: 0.55 * h), mouth: Point(x: 0.5 * w, y: 0.9 * h))
                for configuration in YUVEdgeCaseTests.everything {
                    YUVComparison(configuration, faces: [face], frame: frame, orientation: orientation)
                        .check(luma: 2, chroma: configuration.anonymize == .blur ? 4 : 2,
                               "\(orientation), \(bounds), \(configuration.anonymize!), sprite \(configuration.eyeSprite != nil)")
                }
            }
        }
    }

    func testOutOfRangeCoordinatesNeverWriteOutsideThePlanes() {
        for subsampling in ChromaSubsampling.allCases {
            for bitDepth in [8, 10] {
                let encoding = YUVEncoding(matrix: .bt709, range: .limited, bitDepth: bitDepth)
                for orientation in ImageOrientation.allCases {
                    for configuration in YUVEdgeCaseTests.everything {
                        let frame = YUVTestFrame.noise(width: 37, height: 23, subsampling: subsampling, encoding: encoding)
                        YUVOverlayRenderer(configuration: configuration, encoding: encoding)
                            .render(TestFrames.oddFaces, on: frame.image, orientation: orientation)
                        XCTAssertTrue(frame.outsideIsIntact, "\(subsampling), \(bitDepth)-bit, \(orientation)")
                    }
                }
            }
        }
    }

    /// Boxes with one pixel column or row inside the frame: the stroke's inside lies wholly outside
    /// (5d50693 trapped on it: an `--anonymize` run's held mask can follow a face out of the picture
    /// and `render --tracks` draws its box); boxes wholly outside change nothing.
    func testBoxesBarelyInsideOrOutsideTheFrame() {
        let encoding = YUVEncoding(matrix: .bt709, range: .limited)
        let barely = [Rect(x: -39, y: 5, width: 40, height: 12), Rect(x: 39, y: 5, width: 40, height: 12),
                      Rect(x: 5, y: -11, width: 12, height: 12), Rect(x: 5, y: 29, width: 12, height: 12)]
        let outside = [Rect(x: -200, y: 5, width: 40, height: 12), Rect(x: 300, y: 5, width: 40, height: 12)]
        for subsampling in ChromaSubsampling.allCases {
            for configuration in YUVEdgeCaseTests.everything {
                let frame = YUVTestFrame.noise(width: 40, height: 30, subsampling: subsampling, encoding: encoding)
                let renderer = YUVOverlayRenderer(configuration: configuration, encoding: encoding)
                renderer.render(barely.map { TestFrames.face($0) }, on: frame.image, orientation: .up)
                XCTAssertTrue(frame.outsideIsIntact)
                let clear = YUVTestFrame.noise(width: 40, height: 30, subsampling: subsampling, encoding: encoding), original = clear.copy()
                var held = outside.map { TestFrames.face($0, source: .predicted) }
                for i in held.indices { held[i].maskRegion = held[i].observation.bounds }
                renderer.render(held, on: clear.image, orientation: .up)
                XCTAssertEqual((0..<3).map(clear.values), (0..<3).map(original.values))
            }
        }
    }

    func testNonFiniteBoxesAloneChangeNothing() {
        let faces = [TestFrames.face(Rect(x: .nan, y: 10, width: 20, height: 20), leftEye: Point(x: 5, y: 5)),
                     TestFrames.face(Rect(x: 10, y: 10, width: 20, height: -.infinity))]
        let encoding = YUVEncoding(matrix: .bt601, range: .limited)
        for configuration in YUVEdgeCaseTests.everything {
            let frame = YUVTestFrame.noise(width: 40, height: 30, encoding: encoding), original = frame.copy()
            YUVOverlayRenderer(configuration: configuration, encoding: encoding).render(faces, on: frame.image, orientation: .left)
            XCTAssertEqual((0..<3).map(frame.values), (0..<3).map(original.values))
        }
    }

    func testConcurrentRenderingMatchesSerial() {
        let encoding = YUVEncoding(matrix: .bt709, range: .limited)
        let renderer = YUVOverlayRenderer(configuration: OverlayConfiguration(kinds: Set(OverlayKind.allCases),
                                                                              eyeSprite: Sprite.heart(size: 32), anonymize: .blur),
                                          encoding: encoding)
        let faces = YUVEdgeCaseTests.crowd(width: 121, height: 101)
        let expected = YUVTestFrame.noise(width: 121, height: 101, encoding: encoding)
        renderer.render(faces, on: expected.image)
        let frames = (0..<8).map { _ in YUVTestFrame.noise(width: 121, height: 101, encoding: encoding) }
        let images = frames.map(\.image)
        DispatchQueue.concurrentPerform(iterations: frames.count) { i in renderer.render(faces, on: images[i]) }
        for frame in frames { XCTAssertEqual((0..<3).map(frame.values), (0..<3).map(expected.values)) }
    }
}
