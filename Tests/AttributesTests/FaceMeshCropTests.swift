import Attributes
import FaceCore
import XCTest

/// The crop geometry and its sampling, without the model.
final class FaceMeshCropTests: XCTestCase {
    func testCropAndInverseRoundTrip() {
        let crop = FaceMeshCrop(center: Point(x: 321.5, y: 140.25), side: 173, angle: 0.52)
        var state: UInt64 = 12345
        for _ in 0..<200 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let x = Double(state >> 40 & 0xFFFF) / 65535 * 192
            let y = Double(state >> 20 & 0xFFFF) / 65535 * 192
            let back = crop.cropPoint(crop.framePoint(x: x, y: y))
            XCTAssertEqual(back.x, x, accuracy: 0.5)
            XCTAssertEqual(back.y, y, accuracy: 0.5)
        }
        // The crop's centre is the box centre; its corners lie `side / sqrt 2` away.
        let middle = crop.framePoint(x: 96, y: 96)
        XCTAssertEqual(middle.x, 321.5, accuracy: 1e-9)
        XCTAssertEqual(crop.framePoint(x: 0, y: 0).distance(to: middle), 173 / 2.0.squareRoot(), accuracy: 1e-9)
    }

    func testCropFromFace() {
        var face = FaceObservation(bounds: Rect(x: 100, y: 50, width: 80, height: 100), confidence: 0.9)
        XCTAssertEqual(FaceMeshCrop(face: face).angle, 0, "no eyes: no rotation")
        XCTAssertEqual(FaceMeshCrop(face: face).side, 150, accuracy: 1e-9)
        face.leftEye = Point(x: 120, y: 80)
        face.rightEye = Point(x: 160, y: 120)
        XCTAssertEqual(FaceMeshCrop(face: face).angle, .pi / 4, accuracy: 1e-12)
        // The eyes land on one crop row: levelled.
        let crop = FaceMeshCrop(face: face)
        XCTAssertEqual(crop.cropPoint(face.leftEye!).y, crop.cropPoint(face.rightEye!).y, accuracy: 1e-9)
    }

    /// A linear ramp (blue = x, green = y) sampled through a rotated crop reads back the frame
    /// position of each crop pixel (bilinear interpolation is exact on a ramp); outside is black.
    func testSamplingFollowsTheMapping() {
        let image = BGRAImage(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 { image.setPixel(x: x, y: y, b: UInt8(x), g: UInt8(y), r: 40) } }
        let crop = FaceMeshCrop(center: Point(x: 150, y: 120), side: 150, angle: 0.3)
        var input = [Float](repeating: -1, count: 192 * 192 * 3)
        input.withUnsafeMutableBufferPointer { crop.sample(image, into: $0) }
        var checked = 0
        for row in stride(from: 0, to: 192, by: 7) {
            for column in stride(from: 0, to: 192, by: 7) {
                let p = crop.framePoint(x: Double(column) + 0.5, y: Double(row) + 0.5)
                let i = (row * 192 + column) * 3
                if p.x >= 0.5, p.y >= 0.5, p.x <= 255.5, p.y <= 255.5 {
                    XCTAssertEqual(Double(input[i + 2]) * 255, p.x - 0.5, accuracy: 0.05)  // blue
                    XCTAssertEqual(Double(input[i + 1]) * 255, p.y - 0.5, accuracy: 0.05)  // green
                    XCTAssertEqual(Double(input[i]) * 255, 40, accuracy: 0.05)             // red
                    checked += 1
                } else if p.x < -1 || p.y < -1 || p.x > 257 || p.y > 257 {
                    XCTAssertEqual(input[i], 0, "outside the frame is black")
                }
            }
        }
        XCTAssertGreaterThan(checked, 300)
    }

    func testCropFarOutsideTheFrameIsBlack() {
        let image = BGRAImage(width: 64, height: 48)
        image.fill(b: 200, g: 200, r: 200)
        var input = [Float](repeating: -1, count: 192 * 192 * 3)
        input.withUnsafeMutableBufferPointer {
            FaceMeshCrop(center: Point(x: -500, y: 900), side: 90, angle: 1).sample(image, into: $0)
        }
        XCTAssertTrue(input.allSatisfy { $0 == 0 })
        // Absurd geometry (huge, NaN) gives black, not a trap.
        for crop in [FaceMeshCrop(center: Point(x: 1e30, y: -1e30), side: 1e25, angle: 0.1),
                     FaceMeshCrop(center: Point(x: 10, y: 10), side: .nan, angle: 0),
                     FaceMeshCrop(center: Point(x: 10, y: 10), side: 1e300, angle: 2)] {
            input.withUnsafeMutableBufferPointer { crop.sample(image, into: $0) }
            XCTAssertTrue(input.allSatisfy { $0 == 0 })
        }
        // A too-small buffer is left alone rather than overrun.
        var small = [Float](repeating: 7, count: 10)
        small.withUnsafeMutableBufferPointer { FaceMeshCrop(center: Point(x: 32, y: 24), side: 40, angle: 0).sample(image, into: $0) }
        XCTAssertEqual(small, [Float](repeating: 7, count: 10))
    }
}
