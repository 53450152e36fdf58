import FaceCore
import XCTest
@testable import Rendering

/// The YUV renderer against the BGRA renderer on the same frames (see `YUVComparison`), for each
/// overlay kind and each anonymisation mode, across encodings, subsamplings, an odd-sized frame
/// and every stored orientation.
///
/// Tolerances, in 8-bit steps: 1 for what is drawn in solid colours and for pixelate (the
/// reference's own round trip through 8-bit RGB rounds by up to 1); 2 for sprites (bilinear
/// sampling of premultiplied YUV rather than RGB rounds differently); blur 2 in luma and 4 in
/// chroma, which is blurred at chroma resolution with the radius scaled by the subsampling
/// instead of at full resolution and then averaged.
final class YUVSameLookTests: XCTestCase {
    /// A sprite like one read from a file: not square, every alpha from 0 to 255, colours that
    /// differ pixel by pixel, so a turned or mirrored sprite would not match.
    private static let fileSprite: Sprite = {
        let image = BGRAImage(width: 12, height: 7)
        for y in 0..<7 {
            for x in 0..<12 {
                image.setPixel(x: x, y: y, b: UInt8(20 * x), g: UInt8(36 * y), r: UInt8(255 - 15 * x),
                               a: UInt8(min(255, (x + 12 * y) * 3)))
            }
        }
        guard let sprite = try? Sprite(image: image) else { fatalError("sprite") }
        return sprite
    }()

    /// Every overlay alone, with its tolerances (luma, chroma).
    private static let kinds: [(name: String, configuration: OverlayConfiguration, luma: Double, chroma: Double)] = [
        ("boxes", OverlayConfiguration(kinds: [.boxes]), 1, 1),
        ("eyes", OverlayConfiguration(kinds: [.eyes]), 1, 1),
        ("mouth", OverlayConfiguration(kinds: [.mouth]), 1, 1),
        ("labels", OverlayConfiguration(kinds: [.labels]), 1, 1),
        ("box colour", OverlayConfiguration(kinds: [.boxes], boxColor: RenderColor(r: 255, g: 165, b: 0)), 1, 1),
        ("heart sprite", OverlayConfiguration(kinds: [.eyes], eyeSprite: Sprite.heart()), 2, 2),
        ("file sprite", OverlayConfiguration(kinds: [.eyes], eyeSprite: fileSprite), 2, 2),
        ("blur", OverlayConfiguration(kinds: [], anonymize: .blur), 2, 4),
        ("pixelate", OverlayConfiguration(kinds: [], anonymize: .pixelate), 1, 1),
        ("fill", OverlayConfiguration(kinds: [], anonymize: .fill, fillColor: RenderColor(r: 40, g: 200, b: 90)), 1, 1),
        ("fill, mask 0.8", OverlayConfiguration(kinds: [], anonymize: .fill, maskScale: 0.8), 1, 1),
        ("fill, box", OverlayConfiguration(kinds: [], anonymize: .fill, fillColor: RenderColor(r: 40, g: 200, b: 90),
                                           maskShape: .box), 1, 1),
        ("pixelate, box", OverlayConfiguration(kinds: [], anonymize: .pixelate, maskShape: .box), 1, 1),
        ("blur, box", OverlayConfiguration(kinds: [], anonymize: .blur, maskShape: .box), 2, 4),
        ("image", OverlayConfiguration(kinds: [], anonymize: .image, maskImage: MaskImage(fileSprite)), 2, 2),
        ("image, large", OverlayConfiguration(kinds: [], anonymize: .image, maskImage: MaskImage(Sprite.heart(size: 90))), 2, 2),
    ]

    /// Three faces for an upright frame of `width` x `height`, apart from one another, at
    /// fractional positions (edges fall inside chroma footprints) and one partly outside.
    static func faces(width: Int, height: Int) -> [TrackedFace] {
        let s = Double(min(width, height)) / 120
        func face(_ x: Double, _ y: Double, _ w: Double, _ h: Double, id: Int?, smile: Bool?,
                  eyes: (Double, Double, Double, Double), mouth: (Double, Double)) -> TrackedFace {
            TestFrames.face(Rect(x: x * s, y: y * s, width: w * s, height: h * s), confidence: 0.87, trackID: id, smile: smile,
                            leftEye: Point(x: eyes.0 * s, y: eyes.1 * s), rightEye: Point(x: eyes.2 * s, y: eyes.3 * s),
                            mouth: Point(x: mouth.0 * s, y: mouth.1 * s))
        }
        return [face(20.3, 35.6, 41.2, 47.7, id: 3, smile: true, eyes: (32.2, 51.1, 49.7, 50.3), mouth: (41.1, 70.9)),
                face(97.5, 47.5, 35, 39, id: nil, smile: nil, eyes: (106.5, 59.5, 123.5, 60.5), mouth: (115, 78)),
                face(-14.4, 100.3, 27, 50, id: 5, smile: false, eyes: (-5, 110, 5.3, 111), mouth: (0, 130))]
    }

    private func checkEveryKind(width: Int, height: Int, subsampling: ChromaSubsampling = .yuv420,
                                encoding: YUVEncoding, orientations: [ImageOrientation] = [.up],
                                file: StaticString = #filePath, line: UInt = #line) {
        let frame = YUVTestFrame.noise(width: width, height: height, subsampling: subsampling, encoding: encoding)
        for orientation in orientations {
            let upright = orientation.uprightSize(width: width, height: height)
            let faces = YUVSameLookTests.faces(width: upright.width, height: upright.height)
            for kind in YUVSameLookTests.kinds {
                YUVComparison(kind.configuration, faces: faces, frame: frame, orientation: orientation)
                    .check(luma: kind.luma, chroma: kind.chroma, "\(kind.name), \(orientation), \(subsampling), "
                           + "\(encoding.matrix) \(encoding.range) \(encoding.bitDepth)-bit, \(width)x\(height)",
                           file: file, line: line)
            }
        }
    }

    func testEveryKindOn420() {
        checkEveryKind(width: 160, height: 120, encoding: YUVEncoding(matrix: .bt601, range: .limited))
    }

    func testEveryKindOnAnOddSizedFrame() {
        // Chroma planes are 321 x 180: the last column and row stand for one luma column or row.
        checkEveryKind(width: 641, height: 359, encoding: YUVEncoding(matrix: .bt709, range: .limited))
    }

    func testEveryKindInEveryStoredOrientation() {
        checkEveryKind(width: 161, height: 121, encoding: YUVEncoding(matrix: .bt709, range: .limited),
                       orientations: ImageOrientation.allCases)
    }

    func testEveryKindOn422And444() {
        checkEveryKind(width: 161, height: 121, subsampling: .yuv422, encoding: YUVEncoding(matrix: .bt601, range: .limited),
                       orientations: [.up, .right])
        checkEveryKind(width: 161, height: 121, subsampling: .yuv444, encoding: YUVEncoding(matrix: .bt709, range: .limited),
                       orientations: [.up, .left])
    }

    func testEveryKindInFullRangeAnd10Bit() {
        checkEveryKind(width: 160, height: 121, encoding: YUVEncoding(matrix: .bt709, range: .full),
                       orientations: [.up, .down])
        checkEveryKind(width: 161, height: 120, encoding: YUVEncoding(matrix: .bt2020, range: .limited, bitDepth: 10),
                       orientations: [.up, .right])
        checkEveryKind(width: 160, height: 120, subsampling: .yuv422, encoding: YUVEncoding(matrix: .bt601, range: .full, bitDepth: 10))
    }

    func testEveryKindWithTheOlderMatrices() {
        checkEveryKind(width: 160, height: 120, encoding: YUVEncoding(matrix: .smpte240m, range: .limited))
        checkEveryKind(width: 160, height: 120, subsampling: .yuv444, encoding: YUVEncoding(matrix: .fcc, range: .full))
    }
}
