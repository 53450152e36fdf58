import Attributes
import FaceCore
import Foundation
import XCTest

/// Openness and centre from synthetic iris-model contours, and the eye crop geometry.
final class IrisEyeTests: XCTestCase {
    /// A contour with corners `width` apart along the direction `angle` about `center`, whose upper
    /// and lower lid points sit `gap / 2` above and below the corner line; the other points (wider
    /// contour, brow) far away, so only the indexed points matter.
    private func eye(center: Point = Point(x: 100, y: 80), width: Double = 40, gap: Double, angle: Double = 0) -> IrisEye? {
        let c = cos(angle), s = sin(angle)
        func point(_ u: Double, _ v: Double) -> Point { Point(x: center.x + u * c - v * s, y: center.y + u * s + v * c) }
        var contour = (0..<IrisIndex.contourCount).map { k in point(Double(k) * 3 - 100, -60) }
        contour[IrisIndex.outerCorner] = point(-width / 2, 0)
        contour[IrisIndex.innerCorner] = point(width / 2, 0)
        for (k, (upper, lower)) in zip(IrisIndex.upperLid, IrisIndex.lowerLid).enumerated() {
            let u = (Double(k) - 2) * width / 6
            contour[upper] = point(u, -gap / 2)
            contour[lower] = point(u, gap / 2)
        }
        // The iris centre on the eye's centre, four edge points around it.
        var iris = [point(0, 0)]
        for k in 1..<IrisIndex.irisCount {
            let a = Double(k) * .pi / 2
            iris.append(point(5 * cos(a), 5 * sin(a)))
        }
        return IrisEye(contour: contour, iris: iris)
    }

    func testOpennessIsLidGapOverCornerDistance() throws {
        XCTAssertEqual(try XCTUnwrap(eye(gap: 12)?.openness), 0.3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(eye(gap: 0)?.openness), 0, accuracy: 1e-12, "lids touching: closed")
        // Scale, rotation and position do not change it.
        XCTAssertEqual(try XCTUnwrap(eye(center: Point(x: 7, y: 300), width: 13, gap: 3.9, angle: 0.7)?.openness), 0.3, accuracy: 1e-12)
        // A nearly closed eye falls below the closed edge, an open one above the open edge.
        let t = AttributeThresholds()
        XCTAssertLessThan(try XCTUnwrap(eye(gap: 3)?.openness), t.eyeClosedBelow)
        XCTAssertGreaterThan(try XCTUnwrap(eye(gap: 10)?.openness), t.eyeOpenAbove)
    }

    func testCenterIsTheIrisCenter() throws {
        let e = try XCTUnwrap(eye(center: Point(x: 50, y: 60), gap: 10, angle: 0.3))
        XCTAssertEqual(e.center.x, 50, accuracy: 1e-12)
        XCTAssertEqual(e.center.y, 60, accuracy: 1e-12)
    }

    func testBadPointsGiveNothing() throws {
        let good = try XCTUnwrap(eye(gap: 10))
        XCTAssertNil(IrisEye(contour: Array(good.contour.dropLast()), iris: good.iris))
        XCTAssertNil(IrisEye(contour: good.contour, iris: Array(good.iris.dropLast())))
        var bad = good.contour
        bad[IrisIndex.upperLid[2]] = Point(x: .nan, y: 0)
        XCTAssertNil(IrisEye(contour: bad, iris: good.iris))
        XCTAssertNil(eye(width: 0, gap: 10)?.openness, "corners on one point")
    }

    /// The eye crop: centred between the corners, 2.3 x their distance, the corners on the middle
    /// row; the mirrored crop puts the image-right corner on the left; both map back exactly.
    func testEyeCropGeometryAndRoundTrip() {
        let a = Point(x: 200, y: 110), b = Point(x: 240, y: 120)
        let plain = IrisLandmarkModel.crop(imageLeftCorner: a, imageRightCorner: b, mirrored: false)
        let mirrored = IrisLandmarkModel.crop(imageLeftCorner: a, imageRightCorner: b, mirrored: true)
        let distance = a.distance(to: b)
        XCTAssertEqual(plain.side, 2.3 * distance, accuracy: 1e-9)
        XCTAssertEqual(plain.size, 64)
        let half = 32 / 2.3
        let pa = plain.cropPoint(a), pb = plain.cropPoint(b)
        XCTAssertEqual(pa.x, 32 - half, accuracy: 1e-9)
        XCTAssertEqual(pb.x, 32 + half, accuracy: 1e-9)
        XCTAssertEqual(pa.y, 32, accuracy: 1e-9)
        XCTAssertEqual(pb.y, 32, accuracy: 1e-9)
        let ma = mirrored.cropPoint(a), mb = mirrored.cropPoint(b)
        XCTAssertEqual(ma.x, 32 + half, accuracy: 1e-9, "mirrored: the image-left corner on the right")
        XCTAssertEqual(mb.x, 32 - half, accuracy: 1e-9)
        XCTAssertEqual(ma.y, 32, accuracy: 1e-9)
        for crop in [plain, mirrored] {
            for (x, y) in [(0.0, 0.0), (64.0, 5.0), (17.5, 63.0), (40.25, 22.0)] {
                let back = crop.cropPoint(crop.framePoint(x: x, y: y))
                XCTAssertEqual(back.x, x, accuracy: 1e-9)
                XCTAssertEqual(back.y, y, accuracy: 1e-9)
            }
        }
        // Mirroring flips x about the middle column and leaves y alone.
        let p = plain.framePoint(x: 10, y: 20), q = mirrored.framePoint(x: 54, y: 20)
        XCTAssertEqual(p.x, q.x, accuracy: 1e-9)
        XCTAssertEqual(p.y, q.y, accuracy: 1e-9)
    }

    /// A mirrored crop samples the frame mirrored: on a ramp (blue = x, green = y) each crop pixel
    /// reads the frame position `framePoint` gives for it.
    func testMirroredSamplingFollowsTheMapping() {
        let image = BGRAImage(width: 128, height: 128)
        for y in 0..<128 { for x in 0..<128 { image.setPixel(x: x, y: y, b: UInt8(x), g: UInt8(y), r: 7) } }
        let crop = IrisLandmarkModel.crop(imageLeftCorner: Point(x: 50, y: 60), imageRightCorner: Point(x: 78, y: 66), mirrored: true)
        var input = [Float](repeating: -1, count: 64 * 64 * 3)
        input.withUnsafeMutableBufferPointer { crop.sample(image, into: $0) }
        for row in stride(from: 0, to: 64, by: 5) {
            for column in stride(from: 0, to: 64, by: 5) {
                let p = crop.framePoint(x: Double(column) + 0.5, y: Double(row) + 0.5)
                let i = (row * 64 + column) * 3
                XCTAssertEqual(Double(input[i + 2]) * 255, p.x - 0.5, accuracy: 0.05)
                XCTAssertEqual(Double(input[i + 1]) * 255, p.y - 0.5, accuracy: 0.05)
            }
        }
        // The first column of a mirrored crop lies on the image-right side.
        XCTAssertGreaterThan(input[2], input[(64 - 1) * 3 + 2])
    }
}
