import FaceCore
import XCTest
@testable import Detection

/// Anchors, decoding, scores, weighted NMS and the letterbox, on synthetic numbers.
final class BlazeFaceDecoderTests: XCTestCase {
    func testAnchorCountsAndOrder() {
        XCTAssertEqual(BlazeFaceVariant.short.anchorCount, 896)
        XCTAssertEqual(BlazeFaceVariant.full.anchorCount, 2304)
        let short = BlazeFaceVariant.short.anchors()
        XCTAssertEqual(short.count, 896)
        // First layer: 16x16 grid, 2 anchors a cell; then the shared 8x8 grid, 6 a cell.
        XCTAssertEqual(short[0], Point(x: 0.5 / 16, y: 0.5 / 16))
        XCTAssertEqual(short[1], short[0])
        XCTAssertEqual(short[2], Point(x: 1.5 / 16, y: 0.5 / 16))
        XCTAssertEqual(short[512], Point(x: 0.5 / 8, y: 0.5 / 8))
        XCTAssertEqual(short[517], short[512])
        XCTAssertEqual(short[518], Point(x: 1.5 / 8, y: 0.5 / 8))
        XCTAssertEqual(short[895], Point(x: 7.5 / 8, y: 7.5 / 8))
        let full = BlazeFaceVariant.full.anchors()
        XCTAssertEqual(full[48], Point(x: 0.5 / 48, y: 1.5 / 48))
    }

    func testKnownAnchorDecodesToKnownBox() {
        let decoder = BlazeFaceDecoder(variant: .short, threshold: 0.5)
        var regressors = [Float](repeating: 0, count: 896 * 16)
        var scores = [Float](repeating: -10, count: 896)
        // Anchor 2 has centre (1.5/16, 0.5/16) = (12, 4) pixels of 128.
        let row = 2 * 16
        regressors[row] = 20; regressors[row + 1] = 40; regressors[row + 2] = 32; regressors[row + 3] = 16
        regressors[row + 4] = -4; regressors[row + 5] = 8
        scores[2] = 2
        let detections = regressors.withUnsafeBufferPointer { r in
            scores.withUnsafeBufferPointer { s in decoder.decode(regressors: r, scores: s) }
        }
        XCTAssertEqual(detections.count, 1)
        let d = detections[0]
        XCTAssertEqual(d.xMin * 128, 12 + 20 - 16, accuracy: 1e-9)
        XCTAssertEqual(d.xMax * 128, 12 + 20 + 16, accuracy: 1e-9)
        XCTAssertEqual(d.yMin * 128, 4 + 40 - 8, accuracy: 1e-9)
        XCTAssertEqual(d.yMax * 128, 4 + 40 + 8, accuracy: 1e-9)
        XCTAssertEqual(d.keypoints[0].x * 128, 8, accuracy: 1e-9)
        XCTAssertEqual(d.keypoints[0].y * 128, 12, accuracy: 1e-9)
        XCTAssertEqual(d.keypoints[1].x * 128, 12, accuracy: 1e-9)
        XCTAssertEqual(d.score, 1 / (1 + exp(-2)), accuracy: 1e-12)
    }

    func testScoreClipsLogits() {
        XCTAssertEqual(BlazeFaceDecoder.score(logit: 0), 0.5)
        XCTAssertEqual(BlazeFaceDecoder.score(logit: 1e30), 1 / (1 + exp(-100.0)))
        XCTAssertEqual(BlazeFaceDecoder.score(logit: -1e30), 1 / (1 + exp(100.0)))
        XCTAssertGreaterThan(BlazeFaceDecoder.score(logit: -1e30), 0)
    }

    func testThresholdDropsLowScores() {
        let decoder = BlazeFaceDecoder(variant: .full, threshold: 0.6)
        var regressors = [Float](repeating: 0, count: 2304 * 16)
        for i in 0..<2304 { regressors[i * 16 + 2] = 10; regressors[i * 16 + 3] = 10 }
        var scores = [Float](repeating: -5, count: 2304)
        scores[100] = 0.3   // sigmoid 0.574: below 0.6
        scores[2000] = 0.5  // sigmoid 0.622: kept
        let detections = regressors.withUnsafeBufferPointer { r in
            scores.withUnsafeBufferPointer { s in decoder.candidates(regressors: r, scores: s) }
        }
        XCTAssertEqual(detections.count, 1)
        XCTAssertEqual(detections.first?.score ?? 0, 1 / (1 + exp(-0.5)), accuracy: 1e-6)
    }

    func testWeightedSuppressionMergesOverlaps() {
        let decoder = BlazeFaceDecoder(variant: .short, threshold: 0.5)
        let points = [Point](repeating: Point(x: 0.3, y: 0.3), count: 6)
        let a = BlazeFaceDecoder.Detection(xMin: 0.1, yMin: 0.1, xMax: 0.3, yMax: 0.3, keypoints: points, score: 0.9)
        var shiftedPoints = points
        shiftedPoints[0] = Point(x: 0.4, y: 0.5)
        let b = BlazeFaceDecoder.Detection(xMin: 0.12, yMin: 0.1, xMax: 0.32, yMax: 0.3, keypoints: shiftedPoints,
                                           score: 0.6)
        let far = BlazeFaceDecoder.Detection(xMin: 0.6, yMin: 0.6, xMax: 0.8, yMax: 0.8, keypoints: points, score: 0.7)
        let result = decoder.weightedSuppression([b, far, a])
        XCTAssertEqual(result.count, 2)
        XCTAssertEqual(result[0].score, 0.9)
        XCTAssertEqual(result[0].xMin, (0.1 * 0.9 + 0.12 * 0.6) / 1.5, accuracy: 1e-12)
        XCTAssertEqual(result[0].xMax, (0.3 * 0.9 + 0.32 * 0.6) / 1.5, accuracy: 1e-12)
        XCTAssertEqual(result[0].keypoints[0].x, (0.3 * 0.9 + 0.4 * 0.6) / 1.5, accuracy: 1e-12)
        XCTAssertEqual(result[0].keypoints[0].y, (0.3 * 0.9 + 0.5 * 0.6) / 1.5, accuracy: 1e-12)
        XCTAssertEqual(result[1], far)
    }

    func testLetterboxUndo() {
        let wide = Letterbox(frameWidth: 200, frameHeight: 100)
        XCTAssertEqual(wide.padX, 0)
        XCTAssertEqual(wide.padY, 0.25)
        let centre = wide.framePoint(Point(x: 0.5, y: 0.5))
        XCTAssertEqual(centre.x, 100, accuracy: 1e-9)
        XCTAssertEqual(centre.y, 50, accuracy: 1e-9)
        let corner = wide.framePoint(Point(x: 0, y: 0.25))
        XCTAssertEqual(corner.x, 0, accuracy: 1e-9)
        XCTAssertEqual(corner.y, 0, accuracy: 1e-9)
        let tall = Letterbox(frameWidth: 50, frameHeight: 100)
        let point = tall.framePoint(Point(x: 0.75, y: 1))
        XCTAssertEqual(point.x, 50, accuracy: 1e-9)
        XCTAssertEqual(point.y, 100, accuracy: 1e-9)
    }

    func testInputFittedToTheFrame() {
        // The shorter side follows the aspect, rounded up to 32, never above the square.
        XCTAssertEqual(BlazeFaceVariant.full.shortInputSide(frameWidth: 1920, frameHeight: 1080), 128)
        XCTAssertEqual(BlazeFaceVariant.full.shortInputSide(frameWidth: 720, frameHeight: 1280), 128)
        XCTAssertEqual(BlazeFaceVariant.full.shortInputSide(frameWidth: 640, frameHeight: 480), 160)
        XCTAssertEqual(BlazeFaceVariant.full.shortInputSide(frameWidth: 500, frameHeight: 500), 192)
        XCTAssertEqual(BlazeFaceVariant.full.shortInputSide(frameWidth: 3000, frameHeight: 1), 32)
        XCTAssertEqual(BlazeFaceVariant.short.shortInputSide(frameWidth: 1280, frameHeight: 720), 96)
        // A 48 x 32 grid for 192 x 128: rows of 48 cells, normalised per axis.
        let anchors = BlazeFaceVariant.full.anchors(width: 192, height: 128)
        XCTAssertEqual(anchors.count, 48 * 32)
        XCTAssertEqual(BlazeFaceVariant.full.anchorCount(width: 192, height: 128), 48 * 32)
        XCTAssertEqual(anchors[48], Point(x: 0.5 / 48, y: 1.5 / 32))
        XCTAssertEqual(anchors[48 * 32 - 1], Point(x: 47.5 / 48, y: 31.5 / 32))
    }

    func testFittedInputDecodesInItsOwnPixels() {
        // Offsets are input pixels on both axes: 192 across, 128 down.
        let decoder = BlazeFaceDecoder(variant: .full, threshold: 0.5, inputWidth: 192, inputHeight: 128)
        let anchors = 48 * 32
        var regressors = [Float](repeating: 0, count: anchors * 16)
        var scores = [Float](repeating: -10, count: anchors)
        let index = 48 + 1  // centre (6, 6) input pixels
        regressors[index * 16] = 10; regressors[index * 16 + 1] = 20
        regressors[index * 16 + 2] = 24; regressors[index * 16 + 3] = 24
        scores[index] = 3
        let found = regressors.withUnsafeBufferPointer { r in
            scores.withUnsafeBufferPointer { s in decoder.decode(regressors: r, scores: s) }
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual((found.first?.xMin ?? 0) * 192, 6 + 10 - 12, accuracy: 1e-9)
        XCTAssertEqual((found.first?.yMin ?? 0) * 128, 6 + 20 - 12, accuracy: 1e-9)
        XCTAssertEqual((found.first?.yMax ?? 0) * 128, 6 + 20 + 12, accuracy: 1e-9)
    }

    func testLetterboxInAFittedInput() {
        // 1280 x 720 in 192 x 128: scale 0.15, 108 rows of picture, 10 rows of bars above and below.
        let box = Letterbox(frameWidth: 1280, frameHeight: 720, inputWidth: 192, inputHeight: 128)
        XCTAssertEqual(box.padX, 0, accuracy: 1e-12)
        XCTAssertEqual(box.padY, 10.0 / 128, accuracy: 1e-12)
        XCTAssertEqual(box.extent.width, 1280, accuracy: 1e-9)
        XCTAssertEqual(box.extent.height, 128 / 0.15, accuracy: 1e-9)
        let corner = box.framePoint(Point(x: 1, y: 118.0 / 128))
        XCTAssertEqual(corner.x, 1280, accuracy: 1e-9)
        XCTAssertEqual(corner.y, 720, accuracy: 1e-9)
        // Without an input size: the square of the longer side, as before.
        XCTAssertEqual(Letterbox(frameWidth: 200, frameHeight: 100), Letterbox(frameWidth: 200, frameHeight: 100,
                                                                               inputWidth: 200, inputHeight: 200))
    }
}
