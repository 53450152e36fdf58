import FaceCore
import XCTest
@testable import Detection

final class HaarCascadeDetectorTests: XCTestCase {
    private func frame(_ name: String) throws -> BGRAImage {
        try PortableAnymap.readBGRA(path: HaarFixtures.path(name + ".pgm"))
    }

    func testCatalogBuildsHaarDetector() throws {
        XCTAssertTrue(DetectorKind.names.contains("haar"))
        XCTAssertEqual(DetectorKind(name: "haar", accuracy: .low), .haar(HaarSettings(fast: true)))
        let detector = try DetectionSettings(detector: .haar()).makeDetector()
        XCTAssertEqual(detector?.name, "haar")
        let faces = try XCTUnwrap(detector).detect(in: try frame("group"))
        XCTAssertEqual(faces.count, 4)
        XCTAssertTrue(faces.allSatisfy { $0.isValid && $0.confidence > 0 && $0.confidence < 1 })
        XCTAssertEqual(faces.map(\.confidence), faces.map(\.confidence).sorted(by: >))
    }

    func testOptionsMapping() {
        let low = HaarCascadeOptions(settings: HaarSettings(fast: true), threshold: 0.4, minFaceSize: 39.5)
        XCTAssertEqual(low.cascadePath, HaarCascadeOptions.fastCascade)
        XCTAssertEqual(low.scaleFactor, 1.2)
        XCTAssertEqual(low.minFaceSize, 40)
        XCTAssertEqual(low.minConfidence, 0.4)
        let high = HaarCascadeOptions(settings: HaarSettings(cascadePath: "/x/y.xml"))
        XCTAssertEqual(high.cascadePath, "/x/y.xml")
        XCTAssertEqual(high.scaleFactor, 1.1)
        XCTAssertEqual(high.resolve(HaarCascadeOptions.eyeCascade), "/usr/share/opencv4/haarcascades/haarcascade_eye.xml")
    }

    func testConfidenceMapping() {
        XCTAssertEqual(HaarCascadeDetector.confidence(neighbors: 8), 0.5, accuracy: 1e-12)
        XCTAssertEqual(HaarCascadeDetector.confidence(neighbors: 16), 0.75, accuracy: 1e-12)
        XCTAssertLessThan(HaarCascadeDetector.confidence(neighbors: 1000), 1.0 + 1e-12)
    }

    func testMinFaceSizeAndThresholdFilter() throws {
        var options = HaarCascadeOptions(settings: HaarSettings(fast: true), minFaceSize: 60)
        options.findFacialFeatures = false
        let detector = try HaarCascadeDetector(options: options)
        let faces = detector.detect(gray: try HaarFixtures.gray("group"))
        // Without a minimum, OpenCV's LBP boxes on the collage are 45, 55, 98 and 57 pixels wide.
        XCTAssertTrue((1...3).contains(faces.count))
        XCTAssertTrue(faces.allSatisfy { $0.bounds.width >= 60 })
        options.minFaceSize = 0
        options.minConfidence = 0.6  // 17 neighbours -> 0.77, 15 -> 0.73, 9 -> 0.54, 5 -> 0.35
        let confident = try HaarCascadeDetector(options: options).detect(gray: try HaarFixtures.gray("group"))
        XCTAssertEqual(confident.count, 2)
    }

    func testEyesMouthAndSmileOnPortrait() throws {
        let detector = try HaarCascadeDetector(options: HaarCascadeOptions())
        let faces = detector.detect(gray: try HaarFixtures.gray("astronaut"))
        let face = try XCTUnwrap(faces.first)
        let left = try XCTUnwrap(face.leftEye), right = try XCTUnwrap(face.rightEye)
        XCTAssertLessThan(left.x, right.x)
        for eye in [left, right] {
            XCTAssertGreaterThan(eye.y, face.bounds.y)
            XCTAssertLessThan(eye.y, face.bounds.y + face.bounds.height * 0.6)
        }
        XCTAssertEqual(try XCTUnwrap(face.roll), atan2(right.y - left.y, right.x - left.x) * 180 / .pi, accuracy: 1e-9)
        XCTAssertEqual(face.hasSmile, true)
        let mouth = try XCTUnwrap(face.mouth)
        XCTAssertGreaterThan(mouth.y, left.y)
        XCTAssertNil(face.nose)
    }

    func testBadFramesGiveNoFaces() throws {
        var options = HaarCascadeOptions()
        options.threads = 2
        let detector = try HaarCascadeDetector(options: options)
        XCTAssertEqual(try detector.detect(in: BGRAImage(width: 0, height: 0)), [])
        XCTAssertEqual(try detector.detect(in: BGRAImage(width: 1, height: 1)), [])
        XCTAssertEqual(try detector.detect(in: BGRAImage(width: 20, height: 300)), [])  // narrower than the 24 px window
        let grey = BGRAImage(width: 160, height: 120)
        grey.fill(b: 128, g: 128, r: 128)
        XCTAssertEqual(try detector.detect(in: grey), [])
        XCTAssertEqual(detector.faces.candidates(GrayImage(width: 50, height: 50, value: 200)), [])
        let face = try HaarFixtures.gray("astronaut").cropped(x: 170, y: 60, width: 110, height: 110)
        XCTAssertEqual(detector.faces.detectMultiScale(face, scaleFactor: 1), [])
        XCTAssertEqual(detector.faces.detectMultiScale(face, scaleFactor: .nan), [])
        XCTAssertEqual(detector.faces.pyramidScales(width: 110, height: 110, scaleFactor: 1.000001,
                                                    minSize: (0, 0), maxSize: (0, 0)).count, 256)
        var badOptions = HaarCascadeOptions()
        badOptions.scaleFactor = 0.9
        XCTAssertThrowsError(try HaarCascadeDetector(options: badOptions))
    }

    func testMissingCascadeFileIsOneClearError() {
        var options = HaarCascadeOptions()
        options.cascadeDirectory = "/nonexistent/opencv4"
        XCTAssertThrowsError(try HaarCascadeDetector(options: options)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("/nonexistent/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"))
            XCTAssertTrue(text.contains("scripts/setup"))
            XCTAssertFalse(text.contains("\n"))
        }
        XCTAssertThrowsError(try DetectionSettings(detector: .haar(HaarSettings(cascadePath: "/nope.xml"))).makeDetector())
    }
}
