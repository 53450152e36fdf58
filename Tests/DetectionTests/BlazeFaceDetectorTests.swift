import XCTest
import FaceCore
@testable import Detection

/// The detector end to end on the real models.
final class BlazeFaceDetectorTests: XCTestCase {
    private func detector(_ model: String = "full", threshold: Double? = nil, minFaceSize: Double = 0) throws
        -> BlazeFaceDetector {
        try BlazeFaceDetector(settings: BlazeFaceSettings(model: try XCTUnwrap(BlazeFaceVariant(rawValue: model))),
                              threshold: threshold, minFaceSize: minFaceSize, models: try DetectionTestSupport.models())
    }

    /// A detector letterboxing into the model's square input, as ai-edge-litert's reference does.
    private func squareDetector(_ model: String) throws -> BlazeFaceDetector {
        let variant = try XCTUnwrap(BlazeFaceVariant(rawValue: model))
        return try BlazeFaceDetector(variant: variant,
                                     modelPath: try DetectionTestSupport.models().path(for: variant.fileName),
                                     squareInput: true)
    }

    func testMatchesReferenceRuntimeOnFaceImage() throws {
        let image = try DetectionTestSupport.loadPPM(try DetectionTestSupport.fixtureURL("grace_hopper.ppm"))
        for variant in ["short", "full"] {
            let faces = try squareDetector(variant).detect(in: image)
            let reference = try DetectionTestSupport.referenceRows(variant: variant)
            XCTAssertEqual(faces.count, reference.count, variant)
            XCTAssertFalse(reference.isEmpty)
            for (face, row) in zip(faces, reference) {
                XCTAssertEqual(face.confidence, row[0], accuracy: 1e-3, variant)
                XCTAssertEqual(face.bounds.x, row[1], accuracy: 1, variant)
                XCTAssertEqual(face.bounds.y, row[2], accuracy: 1, variant)
                XCTAssertEqual(face.bounds.width, row[3], accuracy: 1, variant)
                XCTAssertEqual(face.bounds.height, row[4], accuracy: 1, variant)
                let points = [face.leftEye, face.rightEye, face.nose, face.mouth, face.leftEar, face.rightEar]
                for (k, point) in points.enumerated() {
                    XCTAssertEqual(point?.x ?? .nan, row[5 + 2 * k], accuracy: 1, "\(variant) keypoint \(k)")
                    XCTAssertEqual(point?.y ?? .nan, row[6 + 2 * k], accuracy: 1, "\(variant) keypoint \(k)")
                }
            }
            if let face = faces.first, let left = face.leftEye, let right = face.rightEye {
                // The image-left eye is left of the image-right eye on an upright face.
                XCTAssertLessThan(left.x, right.x)
                XCTAssertEqual(face.roll ?? .nan, atan2(right.y - left.y, right.x - left.x) * 180 / .pi, accuracy: 1e-9)
                XCTAssertLessThan(abs(face.roll ?? 90), 20)
            }
        }
    }

    /// Several pictures at once: each gets exactly the faces it gets alone, in order, also when
    /// those of one input size run as one batch (through the graph's reshapes and concatenations).
    func testBatchOfPicturesFindsWhatEachFindsAlone() throws {
        let image = try DetectionTestSupport.loadPPM(try DetectionTestSupport.fixtureURL("grace_hopper.ppm"))
        let pictures = DetectionTestSupport.batchPictures(image)
        for variant in ["short", "full"] {
            let alone = try detector(variant)
            let expected = try pictures.map { try alone.detect(in: $0) }
            XCTAssertFalse(expected[3].isEmpty, "\(variant): the whole picture finds the face")
            XCTAssertEqual(try detector(variant).detect(in: pictures), expected, variant)
            let batching = try detector(variant)
            batching.alwaysBatches = true
            XCTAssertEqual(try batching.detect(in: pictures), expected, "\(variant), batched")
            let square = try squareDetector(variant)
            square.alwaysBatches = true
            XCTAssertEqual(try square.detect(in: pictures),
                           try pictures.map { try squareDetector(variant).detect(in: $0) }, "\(variant), square input")
        }
    }

    func testInputFittedToTheFrameFindsTheSameFaces() throws {
        // The portrait (218x256) in a 16:9 frame: the fitted input is 192 x 128 (or 128 x 96)
        // instead of the square; the picture the network sees is the same, only the bars shrink.
        let face = try DetectionTestSupport.loadPPM(try DetectionTestSupport.fixtureURL("grace_hopper.ppm"))
        let frame = BGRAImage(width: 640, height: 360)
        frame.fill(b: 90, g: 90, r: 90)
        for y in 0..<face.height {
            frame.row(60 + y).advanced(by: 300 * 4).update(from: face.row(y), count: face.width * 4)
        }
        frame.contentsDidChange()
        for variant in ["short", "full"] {
            let fitted = try detector(variant), square = try squareDetector(variant)
            XCTAssertTrue(fitted.fitsInputToFrame, variant)
            let letterbox = fitted.letterbox(for: frame)
            XCTAssertEqual(letterbox.inputWidth, variant == "full" ? 192 : 128, variant)
            XCTAssertEqual(letterbox.inputHeight, variant == "full" ? 128 : 96, variant)
            let a = try fitted.detect(in: frame), b = try square.detect(in: frame)
            XCTAssertEqual(a.count, 1, variant)
            XCTAssertEqual(b.count, 1, variant)
            guard let found = a.first, let reference = b.first else { continue }
            XCTAssertGreaterThan(found.bounds.iou(reference.bounds), 0.9, variant)
            XCTAssertEqual(found.confidence, reference.confidence, accuracy: 0.05, variant)
            XCTAssertEqual(found.leftEye?.x ?? 0, reference.leftEye?.x ?? 1, accuracy: 3, variant)
            XCTAssertEqual(found.leftEye?.y ?? 0, reference.leftEye?.y ?? 1, accuracy: 3, variant)
        }
    }

    func testFaceFoundInLargerFrame() throws {
        // The face image enlarged 3x (nearest neighbour) inside a larger grey frame: the detector
        // shrinks the frame by 3 before sampling, which restores the original pixels.
        let face = try DetectionTestSupport.loadPPM(try DetectionTestSupport.fixtureURL("grace_hopper.ppm"))
        let frame = BGRAImage(width: 900, height: 800)
        frame.fill(b: 90, g: 90, r: 90)
        let (left, top) = (120, 15)
        for y in 0..<(face.height * 3) {
            let target = frame.row(top + y) + left * 4, source = face.row(y / 3)
            for x in 0..<(face.width * 3) {
                for byte in 0..<4 { target[x * 4 + byte] = source[(x / 3) * 4 + byte] }
            }
        }
        frame.contentsDidChange()
        let reference = try DetectionTestSupport.referenceRows(variant: "short")[0]
        let faces = try detector("short").detect(in: frame)
        XCTAssertEqual(faces.count, 1)
        // The network sees the face at a different scale than in the reference, so allow 5% of its size.
        let tolerance = 0.05 * 3 * reference[3]
        XCTAssertEqual(faces.first?.bounds.center.x ?? 0, Double(left) + 3 * (reference[1] + reference[3] / 2),
                       accuracy: tolerance)
        XCTAssertEqual(faces.first?.bounds.center.y ?? 0, Double(top) + 3 * (reference[2] + reference[4] / 2),
                       accuracy: tolerance)
        XCTAssertEqual(faces.first?.bounds.width ?? 0, 3 * reference[3], accuracy: 0.06 * 3 * reference[3])
    }

    func testFaceFoundInFrameSmallerThanTheInput() throws {
        // Half size (109x128): the letterbox is upsampled to 128 or 192 pixels.
        let face = try DetectionTestSupport.loadPPM(try DetectionTestSupport.fixtureURL("grace_hopper.ppm"))
        let small = face.downscaled(by: 2)
        for variant in ["short", "full"] {
            let reference = try DetectionTestSupport.referenceRows(variant: variant)[0]
            let faces = try detector(variant).detect(in: small)
            XCTAssertEqual(faces.count, 1, variant)
            let tolerance = 0.1 * reference[3] / 2
            XCTAssertEqual(faces.first?.bounds.center.x ?? 0, (reference[1] + reference[3] / 2) / 2, accuracy: tolerance)
            XCTAssertEqual(faces.first?.bounds.center.y ?? 0, (reference[2] + reference[4] / 2) / 2, accuracy: tolerance)
        }
    }

    func testNoFaceInSyntheticFrame() throws {
        let frame = BGRAImage(width: 320, height: 240)
        for y in 0..<240 {
            for x in 0..<320 { frame.setPixel(x: x, y: y, b: UInt8(x % 256), g: UInt8(y), r: UInt8((x + y) % 256)) }
        }
        for model in ["short", "full"] {
            XCTAssertEqual(try detector(model).detect(in: frame), [], model)
        }
    }

    func testTinyAndEmptyFramesDoNotCrash() throws {
        let detector = try detector("short")
        XCTAssertEqual(try detector.detect(in: BGRAImage(width: 0, height: 0)), [])
        XCTAssertEqual(try detector.detect(in: BGRAImage(width: 0, height: 50)), [])
        XCTAssertEqual(try detector.detect(in: BGRAImage(width: 1, height: 1)), [])
        XCTAssertEqual(try detector.detect(in: BGRAImage(width: 3000, height: 1)), [])
        let small = BGRAImage(width: 40, height: 30)
        small.fill(b: 200, g: 180, r: 160)
        XCTAssertEqual(try detector.detect(in: small), [])
    }

    func testMinFaceSizeAndThreshold() throws {
        let image = try DetectionTestSupport.loadPPM(try DetectionTestSupport.fixtureURL("grace_hopper.ppm"))
        XCTAssertEqual(try detector("short", minFaceSize: 80).detect(in: image).count, 1)
        XCTAssertEqual(try detector("short", minFaceSize: 120).detect(in: image).count, 0)
        XCTAssertEqual(try detector("short", threshold: 0.99).detect(in: image).count, 0)
    }

    func testVariantSelectionAndDefaults() throws {
        XCTAssertEqual(BlazeFaceSettings().model, .full)
        XCTAssertEqual(try detector().variant, .full)
        XCTAssertEqual(try detector("short").variant, .short)
        XCTAssertEqual(try detector("short").threshold, 0.5)
        XCTAssertEqual(try detector().threshold, 0.6)
        XCTAssertEqual(try detector(threshold: 0.7).threshold, 0.7)
    }

    func testSettingsBuildBlazeFaceForLowAccuracy() throws {
        XCTAssertTrue(DetectorKind.names.contains("blazeface"))
        XCTAssertEqual(DetectorKind.default(accuracy: .low).name, "blazeface")
        let settings = DetectionSettings(detector: .blazeface(BlazeFaceSettings(model: .short)),
                                         models: try DetectionTestSupport.models())
        XCTAssertEqual(settings.effectiveThreshold, 0.5, "the short model's own default")
        let made = try XCTUnwrap(settings.makeDetector() as? BlazeFaceDetector)
        XCTAssertEqual(made.variant, .short)
    }

    func testMissingAndDamagedModelsGiveModelError() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("facetrack-no-models-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let missing = ModelLocator(explicitDirectory: empty.path)
        XCTAssertThrowsError(try BlazeFaceDetector(models: missing)) { error in
            XCTAssertTrue(error is ModelError)
            XCTAssertTrue("\(error)".contains("face_detection_full_range.tflite"))
            XCTAssertTrue("\(error)".contains("scripts/setup"))
        }
        let real = try DetectionTestSupport.models().path(for: "face_detection_full_range.tflite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: real))
        try bytes.prefix(bytes.count / 2).write(to: empty.appendingPathComponent("face_detection_full_range.tflite"))
        XCTAssertThrowsError(try BlazeFaceDetector(models: missing)) { error in
            XCTAssertTrue(error is ModelError)
            XCTAssertTrue("\(error)".contains("face_detection_full_range.tflite"))
            XCTAssertFalse("\(error)".contains("\n"))
        }
        // A valid model of the wrong kind.
        let landmark = try DetectionTestSupport.models().path(for: "face_landmark.tflite")
        XCTAssertThrowsError(try BlazeFaceDetector(variant: .short, modelPath: landmark)) { error in
            XCTAssertTrue(error is ModelError)
        }
    }
}
