import XCTest
@testable import FaceCore

final class GeometryTests: XCTestCase {
    func testIoUOfHalfOverlappingBoxes() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        let b = Rect(x: 5, y: 0, width: 10, height: 10)
        XCTAssertEqual(a.iou(b), 50.0 / 150.0, accuracy: 1e-12)
        XCTAssertEqual(a.iou(Rect(x: 20, y: 20, width: 5, height: 5)), 0)
    }

    func testInvalidBoxes() {
        XCTAssertFalse(Rect(x: 0, y: 0, width: 0, height: 5).isValid)
        XCTAssertFalse(Rect(x: .nan, y: 0, width: 3, height: 5).isValid)
        XCTAssertFalse(Rect(x: 0, y: 0, width: .infinity, height: 5).isValid)
        XCTAssertTrue(Rect(centerX: 5, centerY: 5, width: 2, height: 2).isValid)
    }
}

final class OrientationTests: XCTestCase {
    /// A 3x2 image whose pixels are numbered, so any misplaced pixel shows.
    private func numbered(width: Int, height: Int) -> BGRAImage {
        let image = BGRAImage(width: width, height: height)
        for y in 0..<height { for x in 0..<width { image.setPixel(x: x, y: y, b: UInt8(y * width + x), g: 0, r: 0) } }
        return image
    }

    func testRightRotatesClockwise() {
        // Stored 3x2:  0 1 2 / 3 4 5. Rotated 90° clockwise it reads 3 0 / 4 1 / 5 2.
        let stored = numbered(width: 3, height: 2)
        let upright = BGRAImage(width: 2, height: 3)
        BGRAImage.makeUpright(stored, orientation: .right, into: upright)
        let values = (0..<3).flatMap { y in (0..<2).map { x in Int(upright.pixel(x: x, y: y).b) } }
        XCTAssertEqual(values, [3, 0, 4, 1, 5, 2])
    }

    func testEveryOrientationRoundTrips() {
        let stored = numbered(width: 5, height: 3)
        for orientation in ImageOrientation.allCases {
            let size = orientation.uprightSize(width: 5, height: 3)
            let upright = BGRAImage(width: size.width, height: size.height)
            BGRAImage.makeUpright(stored, orientation: orientation, into: upright)
            let back = BGRAImage(width: 5, height: 3)
            BGRAImage.restoreStored(upright, orientation: orientation, into: back)
            for y in 0..<3 { for x in 0..<5 {
                XCTAssertEqual(back.pixel(x: x, y: y).b, stored.pixel(x: x, y: y).b, "\(orientation) at \(x),\(y)")
            } }
        }
    }

    func testDisplayRotationMapping() {
        XCTAssertEqual(ImageOrientation(clockwiseDegrees: 90), .right)
        XCTAssertEqual(ImageOrientation(clockwiseDegrees: -90), .left)
        XCTAssertEqual(ImageOrientation(clockwiseDegrees: 180), .down)
        XCTAssertEqual(ImageOrientation(clockwiseDegrees: 0, mirrored: true), .upMirrored)
    }
}

final class BGRAImageTests: XCTestCase {
    func testDownscaleAveragesBlocks() {
        let image = BGRAImage(width: 4, height: 2)
        image.fill(b: 10, g: 20, r: 30)
        image.setPixel(x: 0, y: 0, b: 50, g: 20, r: 30)
        let half = image.downscaled(by: 2)
        XCTAssertEqual(half.width, 2)
        XCTAssertEqual(half.height, 1)
        XCTAssertEqual(half.pixel(x: 0, y: 0).b, 20) // (50 + 10 + 10 + 10) / 4
        XCTAssertEqual(half.pixel(x: 1, y: 0).b, 10)
        XCTAssertTrue(image.downscaled(by: 2) === half, "the view is cached")
        image.contentsDidChange()
        XCTAssertFalse(image.downscaled(by: 2) === half)
    }

    func testResampleShrinksByBlockMeansAndEnlargesBilinearly() {
        let image = BGRAImage(width: 8, height: 4)
        for y in 0..<4 { for x in 0..<8 { image.setPixel(x: x, y: y, b: UInt8(x * 10), g: UInt8(y * 20), r: 200) } }
        let half = BGRAImage(width: 4, height: 2)
        image.resample(Rect(x: 0, y: 0, width: 8, height: 4), into: half)
        XCTAssertEqual(half.pixel(x: 1, y: 1).b, 25, "mean of columns 2 and 3")
        XCTAssertEqual(half.pixel(x: 1, y: 1).g, 50, "mean of rows 2 and 3")
        let double = BGRAImage(width: 4, height: 4)
        image.resample(Rect(x: 2, y: 0, width: 2, height: 4), into: double)
        XCTAssertEqual(double.pixel(x: 0, y: 0).b, 18, "a quarter pixel before column 2's centre (pixel centres aligned)")
        XCTAssertEqual(double.pixel(x: 1, y: 0).b, 23, "a quarter pixel after it")
        XCTAssertEqual(double.pixel(x: 2, y: 0).b, 28)
        let outside = BGRAImage(width: 2, height: 2)
        image.resample(Rect(x: -4, y: -4, width: 2, height: 2), into: outside)
        XCTAssertEqual(outside.pixel(x: 0, y: 0).b, 0, "beyond the edge repeats the edge")
        XCTAssertEqual(outside.pixel(x: 1, y: 1).r, 200)
    }

    func testRowsAreAligned() {
        let image = BGRAImage(width: 17, height: 3)
        XCTAssertEqual(image.bytesPerRow % 64, 0)
        XCTAssertGreaterThanOrEqual(image.bytesPerRow, 17 * 4)
    }
}
