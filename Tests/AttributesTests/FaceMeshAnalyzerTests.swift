import Attributes
import Detection
import FaceCore
import Foundation
import MediaIO
import XCTest

/// The face mesh on the project's grace_hopper fixture (upright, rotated, cut, shrunk) and bad input.
final class FaceMeshAnalyzerTests: XCTestCase {
    private static func models() throws -> ModelLocator {
        if let env = ProcessInfo.processInfo.environment[ModelLocator.environmentVariable], !env.isEmpty {
            return ModelLocator(explicitDirectory: env)
        }
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("models")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(FaceMeshAnalyzer.modelFileName).path),
               FileManager.default.fileExists(atPath: candidate.appendingPathComponent(IrisLandmarkModel.modelFileName).path) {
                return ModelLocator(explicitDirectory: candidate.path)
            }
            dir.deleteLastPathComponent()
        }
        throw XCTSkip("face_landmark.tflite / iris_landmark.tflite not found: run scripts/setup or set FACETRACK_MODELS")
    }

    private var models: ModelLocator!
    private var analyzer: FaceMeshAnalyzer!
    private var detector: BlazeFaceDetector!
    private var hopper: BGRAImage!

    override func setUpWithError() throws {
        models = try Self.models()
        analyzer = try FaceMeshAnalyzer(models: models, selection: .all)
        detector = try BlazeFaceDetector(models: models)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../DetectionTests/Fixtures/grace_hopper.ppm").standardized.path
        hopper = try ImageLoader.load(path: path).image
    }

    private func analysed(_ image: BGRAImage) throws -> FaceObservation {
        var faces = try detector.detect(in: image)
        XCTAssertEqual(faces.count, 1)
        try analyzer.analyze(&faces, in: image)
        return try XCTUnwrap(faces.first)
    }

    func testUprightPortrait() throws {
        let face = try analysed(hopper)
        XCTAssertEqual(face.landmarks?.count, 468)
        let scores = try XCTUnwrap(face.attributeScores)
        XCTAssertGreaterThan(try XCTUnwrap(scores.leftEyeOpenness), AttributeThresholds().eyeOpenAbove)
        XCTAssertGreaterThan(try XCTUnwrap(scores.rightEyeOpenness), AttributeThresholds().eyeOpenAbove)
        XCTAssertLessThan(try XCTUnwrap(scores.smile), AttributeThresholds().smileAbove, "a neutral portrait")
        XCTAssertEqual(try XCTUnwrap(face.roll), 0, accuracy: 6)
        XCTAssertEqual(try XCTUnwrap(face.yaw), 0, accuracy: 10)
        // Refined eyes and mouth lie inside the box, eyes above the mouth.
        let left = try XCTUnwrap(face.leftEye), right = try XCTUnwrap(face.rightEye), mouth = try XCTUnwrap(face.mouth)
        XCTAssertLessThan(left.x, right.x)
        XCTAssertLessThan(max(left.y, right.y), mouth.y)
        XCTAssertTrue(face.bounds.intersection(Rect(x: mouth.x, y: mouth.y, width: 0.01, height: 0.01)).area > 0)
    }

    func testRotatedThirtyDegreesGivesRoll() throws {
        let upright = try XCTUnwrap(try analysed(hopper).roll)
        let rotated = Self.rotated(hopper, degrees: 30)
        let roll = try XCTUnwrap(try analysed(rotated).roll)
        XCTAssertEqual(roll, upright + 30, accuracy: 3)
    }

    func testBoxWithoutEyesStillWorks() throws {
        var faces = try detector.detect(in: hopper)
        let withEyes = try XCTUnwrap(faces.first)
        faces[0].leftEye = nil
        faces[0].rightEye = nil
        try analyzer.analyze(&faces, in: hopper)
        let roll = try XCTUnwrap(faces[0].roll)
        XCTAssertEqual(faces[0].landmarks?.count, 468)
        XCTAssertEqual(roll, try XCTUnwrap(try analysed(hopper).roll), accuracy: 3)
        XCTAssertNotNil(withEyes.leftEye)
    }

    func testFaceAtTheFrameEdgeIsPadded() throws {
        let face = try XCTUnwrap(try detector.detect(in: hopper).first)
        // Keep the image from the face's centre rightwards: the crop hangs far outside on the left.
        let cut = Int(face.bounds.center.x)
        let image = BGRAImage(width: hopper.width - cut, height: hopper.height)
        for y in 0..<image.height { image.row(y).update(from: hopper.row(y) + cut * 4, count: image.width * 4) }
        var moved = face
        moved.bounds.x -= Double(cut)
        moved.leftEye = nil
        moved.rightEye = nil
        var faces = [moved]
        try analyzer.analyze(&faces, in: image)
        if let points = faces[0].landmarks { XCTAssertEqual(points.count, 468) }
        XCTAssertEqual(faces[0].bounds, moved.bounds, "the box is not touched")
    }

    func testTinyFaceIsLeftEmpty() throws {
        var faces = [FaceObservation(bounds: Rect(x: 10, y: 10, width: 20, height: 20), confidence: 0.9)]
        try analyzer.analyze(&faces, in: hopper)
        XCTAssertNil(faces[0].attributeScores)
        XCTAssertNil(faces[0].landmarks)
        XCTAssertNil(faces[0].yaw)
    }

    func testNoFaceInTheCropIsLeftEmpty() throws {
        let blank = BGRAImage(width: 200, height: 200)
        blank.fill(b: 90, g: 160, r: 40)
        var faces = [FaceObservation(bounds: Rect(x: 50, y: 50, width: 100, height: 100), confidence: 0.9)]
        try analyzer.analyze(&faces, in: blank)
        XCTAssertNil(faces[0].attributeScores)
        XCTAssertNil(faces[0].landmarks)
    }

    func testSelectionLimitsWhatIsFilled() throws {
        let smileOnly = try FaceMeshAnalyzer(models: models, selection: .smile)
        var faces = try detector.detect(in: hopper)
        let detectorRoll = faces[0].roll
        try smileOnly.analyze(&faces, in: hopper)
        XCTAssertNotNil(faces[0].attributeScores?.smile)
        XCTAssertNil(faces[0].attributeScores?.leftEyeOpenness)
        XCTAssertNil(faces[0].yaw)
        XCTAssertEqual(faces[0].roll, detectorRoll, "angle not asked: the detector's roll stays")
    }

    /// With blink, the iris model measures the eyes: open eyes well above the open edge, eye
    /// centres (iris centres) close to the mesh's; without the iris model the mesh's ratio is used.
    func testIrisModelMeasuresTheEyes() throws {
        let face = try analysed(hopper)
        let points = try XCTUnwrap(face.landmarks)
        let meshOnly = try FaceMeshAnalyzer(modelPath: try models.path(for: FaceMeshAnalyzer.modelFileName), selection: .all)
        var faces = try detector.detect(in: hopper)
        try meshOnly.analyze(&faces, in: hopper)
        let measures = try XCTUnwrap(FaceMeshMeasures(points: points))
        XCTAssertEqual(try XCTUnwrap(faces[0].attributeScores?.leftEyeOpenness), measures.leftEyeOpenness, accuracy: 1e-9)
        let eyeDistance = measures.leftEyeCenter.distance(to: measures.rightEyeCenter)
        XCTAssertLessThan(try XCTUnwrap(face.leftEye).distance(to: measures.leftEyeCenter), 0.15 * eyeDistance)
        XCTAssertLessThan(try XCTUnwrap(face.rightEye).distance(to: measures.rightEyeCenter), 0.15 * eyeDistance)
        XCTAssertNotEqual(face.leftEye, measures.leftEyeCenter, "iris centre, not the mesh's mean")
        // Both eyes as the iris model sees them: open, and similar (the right one mirrored).
        let iris = try IrisLandmarkModel(modelPath: try models.path(for: IrisLandmarkModel.modelFileName))
        let left = try XCTUnwrap(iris.eye(imageLeftCorner: points[33], imageRightCorner: points[133], mirrored: false, in: hopper))
        let right = try XCTUnwrap(iris.eye(imageLeftCorner: points[362], imageRightCorner: points[263], mirrored: true, in: hopper))
        let l = try XCTUnwrap(left.openness), r = try XCTUnwrap(right.openness)
        XCTAssertGreaterThan(min(l, r), AttributeThresholds().eyeOpenAbove)
        XCTAssertEqual(l, r, accuracy: 0.1)
        // The contour's corners land near the mesh's corners (mirroring undone).
        XCTAssertLessThan(right.contour[IrisIndex.outerCorner].distance(to: points[263]), 0.3 * points[362].distance(to: points[263]))
        XCTAssertEqual(try XCTUnwrap(face.attributeScores?.leftEyeOpenness), l, accuracy: 1e-9)
    }

    /// Painting over the eyes (lids shut, no iris) drops the iris model's openness below the closed edge.
    func testPaintedOverEyesReadClosed() throws {
        let face = try analysed(hopper)
        let points = try XCTUnwrap(face.landmarks)
        let shut = BGRAImage(width: hopper.width, height: hopper.height)
        for y in 0..<hopper.height { shut.row(y).update(from: hopper.row(y), count: hopper.width * 4) }
        // Skin colour from below the eyes; a band over each eye, corner to corner, a third as high.
        let cheek = points[FaceMeshIndex.imageLeftEye.lower[1]]
        let skinRow = shut.row(Int(cheek.y) + Int(0.25 * points[33].distance(to: points[133])))
        let skin = (skinRow + Int(cheek.x) * 4)
        let (b, g, r) = (skin[0], skin[1], skin[2])
        for (outer, inner) in [(33, 133), (263, 362)] {
            let p = points[outer], q = points[inner]
            let halfHeight = p.distance(to: q) / 3
            for y in Int(min(p.y, q.y) - halfHeight)...Int(max(p.y, q.y) + halfHeight) {
                for x in Int(min(p.x, q.x) - 2)...Int(max(p.x, q.x) + 2) { shut.setPixel(x: x, y: y, b: b, g: g, r: r) }
            }
        }
        var faces = [face]
        faces[0].attributeScores = nil
        faces[0].landmarks = nil
        try analyzer.analyze(&faces, in: shut)
        let scores = try XCTUnwrap(faces[0].attributeScores)
        XCTAssertLessThan(try XCTUnwrap(scores.leftEyeOpenness), AttributeThresholds().eyeClosedBelow)
        XCTAssertLessThan(try XCTUnwrap(scores.rightEyeOpenness), AttributeThresholds().eyeClosedBelow)
    }

    /// The iris model is needed (and its absence one line) only when blink is asked.
    func testMissingIrisModelOnlyMattersForBlink() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iris-missing-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(FaceMeshAnalyzer.modelFileName).path,
                                                   withDestinationPath: try models.path(for: FaceMeshAnalyzer.modelFileName))
        let onlyMesh = ModelLocator(explicitDirectory: folder.path)
        XCTAssertNoThrow(try FaceMeshAnalyzer(models: onlyMesh, selection: [.smile, .angle]))
        for selection: AttributeSelection in [.blink, .all] {
            XCTAssertThrowsError(try FaceMeshAnalyzer(models: onlyMesh, selection: selection)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(IrisLandmarkModel.modelFileName), text)
                XCTAssertFalse(text.contains("\n"), text)
            }
        }
    }

    func testMissingModelIsOneClearLine() {
        XCTAssertThrowsError(try FaceMeshAnalyzer(models: ModelLocator(explicitDirectory: "/nonexistent/models"),
                                                  selection: .all)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(FaceMeshAnalyzer.modelFileName), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
    }

    /// `image` turned clockwise on screen by `degrees` about its centre, on a canvas large enough
    /// to hold all of it (bilinear, grey outside).
    static func rotated(_ image: BGRAImage, degrees: Double) -> BGRAImage {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let side = Int((Double(image.width * image.width + image.height * image.height)).squareRoot()) + 2
        let out = BGRAImage(width: side, height: side)
        out.fill(b: 128, g: 128, r: 128)
        let cx = Double(image.width) / 2, cy = Double(image.height) / 2, oc = Double(side) / 2
        for y in 0..<side {
            for x in 0..<side {
                // Inverse rotation of the output pixel centre into the source.
                let dx = Double(x) + 0.5 - oc, dy = Double(y) + 0.5 - oc
                let sx = dx * c + dy * s + cx - 0.5, sy = -dx * s + dy * c + cy - 0.5
                let ix = Int(floor(sx)), iy = Int(floor(sy))
                guard ix >= 0, iy >= 0, ix + 1 < image.width, iy + 1 < image.height else { continue }
                let fx = sx - Double(ix), fy = sy - Double(iy)
                var bgr = [0.0, 0.0, 0.0]
                for (px, py, w) in [(ix, iy, (1 - fx) * (1 - fy)), (ix + 1, iy, fx * (1 - fy)),
                                    (ix, iy + 1, (1 - fx) * fy), (ix + 1, iy + 1, fx * fy)] {
                    let p = image.pixel(x: px, y: py)
                    bgr[0] += Double(p.b) * w; bgr[1] += Double(p.g) * w; bgr[2] += Double(p.r) * w
                }
                out.setPixel(x: x, y: y, b: UInt8(bgr[0].rounded()), g: UInt8(bgr[1].rounded()), r: UInt8(bgr[2].rounded()))
            }
        }
        return out
    }
}
