import FaceCore
@testable import Identity
import XCTest

/// The similarity fit and the chip sampling, on synthetic pictures whose colours encode positions.
final class AlignmentTests: XCTestCase {
    private let rotation = 0.3, scale = 1.3
    private var chipToFrame: SimilarityTransform {
        SimilarityTransform(a: scale * cos(rotation), b: scale * sin(rotation), tx: 40, ty: 25)
    }

    func testFitRecoversAKnownTransformAndItsInverse() throws {
        let source = [Point(x: 10, y: 20), Point(x: 60, y: 22), Point(x: 35, y: 50), Point(x: 36, y: 70)]
        let target = source.map(chipToFrame.apply)
        let fitted = try XCTUnwrap(SimilarityTransform(from: source, to: target))
        XCTAssertEqual(fitted.a, chipToFrame.a, accuracy: 1e-9)
        XCTAssertEqual(fitted.b, chipToFrame.b, accuracy: 1e-9)
        XCTAssertEqual(fitted.tx, 40, accuracy: 1e-9)
        XCTAssertEqual(fitted.ty, 25, accuracy: 1e-9)
        XCTAssertEqual(fitted.scale, scale, accuracy: 1e-9)
        let back = try XCTUnwrap(fitted.inverse).apply(fitted.apply(Point(x: -7, y: 13)))
        XCTAssertEqual(back.x, -7, accuracy: 1e-9)
        XCTAssertEqual(back.y, 13, accuracy: 1e-9)
        // Noisy points: the least-squares fit lies between them, no point is fitted exactly.
        let noisy = zip(target, [(1.0, 0.0), (-1.0, 0.5), (0.0, -1.0), (0.5, 0.5)]).map { Point(x: $0.x + $1.0, y: $0.y + $1.1) }
        let rough = try XCTUnwrap(SimilarityTransform(from: source, to: noisy))
        XCTAssertEqual(rough.scale, scale, accuracy: 0.05)
        XCTAssertNil(SimilarityTransform(from: [Point(x: 1, y: 1)], to: [Point(x: 2, y: 2)]), "one pair")
        XCTAssertNil(SimilarityTransform(from: [Point(x: 1, y: 1), Point(x: 1, y: 1)], to: source.prefix(2).map { $0 }),
                     "coincident source points")
    }

    func testChipPutsTheLandmarksOnTheTemplate() throws {
        var face = FaceObservation(bounds: Rect(x: 0, y: 0, width: 100, height: 100), confidence: 1)
        face.leftEye = chipToFrame.apply(FaceChip.leftEye)
        face.rightEye = chipToFrame.apply(FaceChip.rightEye)
        face.nose = chipToFrame.apply(FaceChip.nose)
        face.mouth = chipToFrame.apply(FaceChip.mouth)
        let chip = try XCTUnwrap(FaceChip(face: face))
        for (point, template) in [(face.leftEye!, FaceChip.leftEye), (face.nose!, FaceChip.nose), (face.mouth!, FaceChip.mouth)] {
            let mapped = chip.frameToChip.apply(point)
            XCTAssertEqual(mapped.x, template.x, accuracy: 1e-9)
            XCTAssertEqual(mapped.y, template.y, accuracy: 1e-9)
        }
        XCTAssertEqual(chip.frameScale, scale, accuracy: 1e-9)
        // Eyes alone determine the chip too; without both eyes there is none.
        face.nose = nil
        face.mouth = nil
        XCTAssertEqual(try XCTUnwrap(FaceChip(face: face)).frameScale, scale, accuracy: 1e-9)
        face.rightEye = nil
        XCTAssertNil(FaceChip(face: face))
    }

    /// A picture whose red is x / divisor and green y / divisor (both linear, so bilinear sampling
    /// and block averaging reproduce them exactly), blue 255.
    private func ramp(size: Int, divisor: Int) -> BGRAImage {
        let image = BGRAImage(width: size, height: size)
        for y in 0..<size {
            for x in 0..<size { image.setPixel(x: x, y: y, b: 255, g: UInt8(y / divisor), r: UInt8(x / divisor)) }
        }
        return image
    }

    /// Samples `image` through `chip` and checks each chip pixel's red and green against the frame
    /// position its centre maps to (in units of the block-averaged picture: value = x / k - 0.5).
    private func assertSamplesPositions(_ image: BGRAImage, chip: FaceChip, divisor: Double,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        var pixels = [Float](repeating: 0, count: FaceChip.size * FaceChip.size * 3)
        pixels.withUnsafeMutableBufferPointer { chip.sample(image, into: $0, means: [1, 2, 3], scale: 0.5) }
        let chipToFrame = try XCTUnwrap(chip.frameToChip.inverse)
        var checked = 0, black = 0
        for row in stride(from: 0, to: FaceChip.size, by: 7) {
            for column in stride(from: 0, to: FaceChip.size, by: 7) {
                let frame = chipToFrame.apply(Point(x: Double(column) + 0.5, y: Double(row) + 0.5))
                let index = (row * FaceChip.size + column) * 3
                let red = Double(pixels[index] / 0.5 + 1), green = Double(pixels[index + 1] / 0.5 + 2)
                let blue = Double(pixels[index + 2] / 0.5 + 3)
                let margin = 2 * divisor
                if frame.x > margin, frame.y > margin, frame.x < Double(image.width) - margin,
                   frame.y < Double(image.height) - margin {
                    XCTAssertEqual(red, frame.x / divisor - 0.5, accuracy: 0.02, "red at \(column),\(row)", file: file, line: line)
                    XCTAssertEqual(green, frame.y / divisor - 0.5, accuracy: 0.02, "green at \(column),\(row)", file: file, line: line)
                    XCTAssertEqual(blue, 255, accuracy: 0.01, file: file, line: line)
                    checked += 1
                } else if frame.x < -margin || frame.y < -margin || frame.x > Double(image.width) + margin
                            || frame.y > Double(image.height) + margin {
                    XCTAssertEqual(blue, 0, accuracy: 0.01, "outside the frame is black", file: file, line: line)
                    black += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 200, file: file, line: line)
        XCTAssertGreaterThan(black, 0, "the test reaches past the frame", file: file, line: line)
    }

    func testChipSamplesBilinearAtTheMappedPositions() throws {
        let chip = FaceChip(frameToChip: try XCTUnwrap(chipToFrame.inverse))
        try assertSamplesPositions(ramp(size: 256, divisor: 1), chip: chip, divisor: 1)
    }

    func testLargeFacesAreSampledFromABlockAveragedFrame() throws {
        // 4.2 frame pixels per chip pixel: sampled from the frame averaged in 4x4 blocks.
        let large = SimilarityTransform(a: 4.2 * cos(0.2), b: 4.2 * sin(0.2), tx: 500, ty: 120)
        let chip = FaceChip(frameToChip: try XCTUnwrap(large.inverse))
        try assertSamplesPositions(ramp(size: 1024, divisor: 4), chip: chip, divisor: 4)
    }
}
