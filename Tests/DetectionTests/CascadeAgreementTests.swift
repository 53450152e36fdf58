import FaceCore
import XCTest
@testable import Detection

/// Our boxes against OpenCV's on the committed fixtures.
final class CascadeAgreementTests: XCTestCase {
    private let images = ["grace_hopper", "astronaut", "group", "coffee"]

    private func agreement(cascade: String, scaleFactor: Double, reference: String) throws -> BoxAgreement {
        let classifier = try CascadeClassifier(contentsOf: HaarFixtures.cascade(cascade))
        let expected = try HaarFixtures.referenceBoxes(reference)
        var result = BoxAgreement()
        for name in images {
            let found = classifier.detectMultiScale(try HaarFixtures.gray(name), scaleFactor: scaleFactor, minNeighbors: 3)
            result.add(reference: expected[name] ?? [], ours: found.map(\.rect))
        }
        return result
    }

    func testHaarFrontalFaceAgreesWithOpenCV() throws {
        let a = try agreement(cascade: "haarcascades/haarcascade_frontalface_default.xml", scaleFactor: 1.1,
                              reference: "opencv_default.csv")
        XCTAssertEqual(a.reference, 6)
        XCTAssertGreaterThanOrEqual(a.matchedShare, 0.95)
        XCTAssertLessThanOrEqual(a.extraShare, 0.05)
    }

    func testHaarAlt2AgreesWithOpenCV() throws {
        let a = try agreement(cascade: HaarCascadeOptions.accurateCascade, scaleFactor: 1.1, reference: "opencv_alt2.csv")
        XCTAssertEqual(a.reference, 6)
        XCTAssertGreaterThanOrEqual(a.matchedShare, 0.95)
        XCTAssertLessThanOrEqual(a.extraShare, 0.05)
    }

    func testLBPFrontalFaceAgreesWithOpenCV() throws {
        let a = try agreement(cascade: HaarCascadeOptions.fastCascade, scaleFactor: 1.2, reference: "opencv_lbp.csv")
        XCTAssertEqual(a.reference, 6)
        XCTAssertGreaterThanOrEqual(a.matchedShare, 0.95)
        XCTAssertLessThanOrEqual(a.extraShare, 0.05)
    }

    /// The smile cascade has tilted features: the raw windows must be exactly OpenCV's, which checks
    /// the pyramid resize, the three integral images, the normalisation and the scan pattern.
    func testRawSmileWindowsEqualOpenCVs() throws {
        let classifier = try CascadeClassifier(contentsOf: HaarFixtures.cascade(HaarCascadeOptions.smileCascade), threads: 2)
        XCTAssertTrue(classifier.model.hasTiltedFeatures)
        let crop = try HaarFixtures.gray("astronaut").cropped(x: 150, y: 120, width: 200, height: 150)
        let text = try String(contentsOfFile: HaarFixtures.path("opencv_smile_raw.csv"), encoding: .utf8)
        let expected = text.split(separator: "\n").dropFirst(2).compactMap { line -> PixelRect? in
            let v = line.split(separator: ",").compactMap { Int($0) }
            return v.count == 4 ? PixelRect(x: v[0], y: v[1], width: v[2], height: v[3]) : nil
        }
        let ours = classifier.detectMultiScale(crop, scaleFactor: 1.1, minNeighbors: 0).map(\.rect)
        XCTAssertEqual(expected.count, 278)
        let key = { (r: PixelRect) in [r.x, r.y, r.width, r.height] }
        XCTAssertEqual(ours.map(key).sorted { $0.lexicographicallyPrecedes($1) }, expected.map(key).sorted { $0.lexicographicallyPrecedes($1) })
    }

    func testThreadCountDoesNotChangeTheResult() throws {
        let classifier = try CascadeClassifier(contentsOf: HaarFixtures.cascade(HaarCascadeOptions.fastCascade), threads: 1)
        let image = try HaarFixtures.gray("group")
        let single = classifier.detectMultiScale(image, scaleFactor: 1.2)
        classifier.threads = 3
        let multi = classifier.detectMultiScale(image, scaleFactor: 1.2)
        XCTAssertEqual(Set(single.map(\.rect)), Set(multi.map(\.rect)))
        XCTAssertEqual(single.count, 4)
    }

    func testResizeIsBitExactWithOpenCV() throws {
        let source = try HaarFixtures.gray("colour_gray")
        XCTAssertEqual(source.resized(width: 37, height: 29), try HaarFixtures.gray("colour_gray_37x29"))
        XCTAssertEqual(source.resized(width: 100, height: 75), try HaarFixtures.gray("colour_gray_100x75"))
        XCTAssertEqual(source.resized(width: 64, height: 48), source)
        XCTAssertTrue(source.resized(width: 0, height: 5).isEmpty)
    }

    func testGreyConversionMatchesOpenCV() throws {
        let frame = try PortableAnymap.readBGRA(path: HaarFixtures.path("colour.ppm"))
        let expected = try HaarFixtures.gray("colour_gray")
        XCTAssertEqual(GrayImage(bgra: frame), expected)
    }
}
