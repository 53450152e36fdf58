import Evaluation
import FaceCore
import XCTest

/// Metrics on hand-made truth and prediction pairs with known answers.
final class EvaluatorTests: XCTestCase {
    private func box(_ x: Double, _ y: Double = 0, _ size: Double = 10) -> Rect { Rect(x: x, y: y, width: size, height: size) }

    private func evaluate(_ truth: [TrackRow], _ prediction: [TrackRow], frames: Set<Int>? = nil, iou: Double = 0.5) throws -> EvaluationResult {
        let truthTable = TrackTable(path: "truth.csv", rows: truth, frames: frames ?? Set(truth.map(\.frame)))
        return try Evaluator(iouThreshold: iou).evaluate(truth: truthTable, prediction: TrackTable(path: "pred.csv", rows: prediction))
    }

    /// Two faces over five frames.
    private func twoTracks() -> [TrackRow] {
        (0..<5).flatMap { f in [TrackRow(frame: f, trackID: 1, box: box(Double(f) * 5)),
                                TrackRow(frame: f, trackID: 2, box: box(100 - Double(f) * 5, 50))] }
    }

    func testPerfectRunScoresOne() throws {
        let truth = twoTracks()
        let prediction = truth.map { row -> TrackRow in var r = row; r.trackID = (row.trackID ?? 0) + 40; r.confidence = 0.9; return r }
        let r = try evaluate(truth, prediction)
        for name in ["precision", "recall", "f1", "mean_iou", "average_precision", "mota", "motp", "idf1", "idp", "idr"] {
            XCTAssertEqual(r.value(of: name) ?? -1, 1, accuracy: 1e-12, name)
        }
        XCTAssertEqual(r.tracking.idSwitches, 0)
        XCTAssertEqual(r.tracking.fragmentations, 0)
        XCTAssertEqual(r.tracking.mostlyTracked, 2)
        XCTAssertEqual(r.tracking.mostlyLost, 0)
        XCTAssertEqual(r.detection.falsePositives, 0)
    }

    func testSwappedIDCountsOneSwitch() throws {
        let truth = (0..<6).map { TrackRow(frame: $0, trackID: 1, box: box(Double($0))) }
        let prediction = truth.map { row -> TrackRow in var r = row; r.trackID = row.frame < 3 ? 7 : 8; return r }
        let r = try evaluate(truth, prediction)
        XCTAssertEqual(r.tracking.idSwitches, 1)
        XCTAssertEqual(r.tracking.mota ?? -1, 1 - 1.0 / 6, accuracy: 1e-12)
        XCTAssertEqual(r.tracking.idf1 ?? -1, 0.5, accuracy: 1e-12, "best pairing covers 3 of 6 frames on each side")
        XCTAssertEqual(r.detection.recall ?? -1, 1, accuracy: 1e-12, "detection does not care about IDs")
    }

    func testTwoTracksTradingIDsCountTwoSwitches() throws {
        let truth = twoTracks()
        let prediction = truth.map { row -> TrackRow in
            var r = row
            r.trackID = row.frame < 2 ? row.trackID : 3 - (row.trackID ?? 0)
            return r
        }
        XCTAssertEqual(try evaluate(truth, prediction).tracking.idSwitches, 2)
    }

    func testMissedFrameLowersRecallByExactAmount() throws {
        let truth = (0..<10).map { TrackRow(frame: $0, trackID: 1, box: box(Double($0) * 3)) }
        let prediction = truth.filter { $0.frame != 4 }
        let r = try evaluate(truth, prediction)
        XCTAssertEqual(r.detection.recall ?? -1, 0.9, accuracy: 1e-12)
        XCTAssertEqual(r.detection.precision ?? -1, 1, accuracy: 1e-12)
        XCTAssertEqual(r.detection.misses, 1)
        XCTAssertEqual(r.tracking.fragmentations, 1, "tracked, missed, tracked again")
        XCTAssertEqual(r.tracking.mota ?? -1, 0.9, accuracy: 1e-12)
        XCTAssertEqual(r.tracking.idSwitches, 0)
    }

    func testIoUAtTheThresholdMatches() throws {
        // Intersection 100, union 200: IoU exactly 0.5.
        let truth = [TrackRow(frame: 0, trackID: 1, box: Rect(x: 0, y: 0, width: 10, height: 10))]
        let prediction = [TrackRow(frame: 0, trackID: 1, box: Rect(x: 0, y: 0, width: 10, height: 20))]
        let atThreshold = try evaluate(truth, prediction, iou: 0.5)
        XCTAssertEqual(atThreshold.detection.truePositives, 1)
        XCTAssertEqual(atThreshold.detection.meanIoU ?? -1, 0.5, accuracy: 1e-12)
        let above = try evaluate(truth, prediction, iou: 0.5000001)
        XCTAssertEqual(above.detection.truePositives, 0)
        XCTAssertEqual(above.detection.falsePositives, 1)
        XCTAssertEqual(above.detection.misses, 1)
    }

    /// Worked by hand: A (ID 1) in frames 0-3, B (ID 2) in frames 0-1. Hypothesis 10 covers A in
    /// frames 0-2, 20 covers B in frame 0, 30 is a false positive in frame 2.
    /// GT 6, matches 4, misses 2, FP 1, IDSW 0: MOTA 1 - 3/6; IDTP 4, hypotheses 5: IDF1 8/11.
    func testMOTAAndIDF1OnHandComputedCase() throws {
        let truth = (0..<4).map { TrackRow(frame: $0, trackID: 1, box: box(0)) }
            + (0..<2).map { TrackRow(frame: $0, trackID: 2, box: box(50)) }
        let prediction = (0..<3).map { TrackRow(frame: $0, trackID: 10, box: box(1)) }
            + [TrackRow(frame: 0, trackID: 20, box: box(50)), TrackRow(frame: 2, trackID: 30, box: box(200))]
        let r = try evaluate(truth, prediction)
        XCTAssertEqual(r.tracking.mota ?? -1, 0.5, accuracy: 1e-12)
        XCTAssertEqual(r.tracking.idf1 ?? -1, 8.0 / 11, accuracy: 1e-12)
        XCTAssertEqual(r.tracking.identityTruePositives, 4)
        XCTAssertEqual(r.tracking.misses, 2)
        XCTAssertEqual(r.tracking.falsePositives, 1)
        XCTAssertEqual(r.tracking.partiallyTracked, 2, "A 3/4, B 1/2")
        XCTAssertEqual(r.tracking.fragmentations, 0, "misses at the ends are not fragmentations")
        XCTAssertEqual(r.detection.precision ?? -1, 0.8, accuracy: 1e-12)
        XCTAssertEqual(r.detection.recall ?? -1, 4.0 / 6, accuracy: 1e-12)
    }

    /// Rows without a track ID are detections, not hypotheses.
    func testUntrackedPredictionsCountForDetectionOnly() throws {
        let truth = (0..<4).map { TrackRow(frame: $0, trackID: 1, box: box(0)) }
        let prediction = truth.map { row -> TrackRow in var r = row; if row.frame < 2 { r.trackID = nil }; return r }
        let r = try evaluate(truth, prediction)
        XCTAssertEqual(r.detection.recall ?? -1, 1, accuracy: 1e-12)
        XCTAssertEqual(r.untrackedPredictions, 2)
        XCTAssertEqual(r.tracking.misses, 2)
        XCTAssertEqual(r.tracking.falsePositives, 0)
        XCTAssertEqual(r.tracking.mota ?? -1, 0.5, accuracy: 1e-12)
    }

    /// Two truth faces; confidences .9 (hit), .8 (false), .7 (hit): precision 1, 1/2, 2/3 at
    /// recall 1/2, 1/2, 1; monotone envelope 1, 2/3, 2/3: AP = 1/2 * 1 + 1/2 * 2/3.
    func testAveragePrecisionOverConfidence() throws {
        let truth = [TrackRow(frame: 0, trackID: 1, box: box(0)), TrackRow(frame: 0, trackID: 2, box: box(100))]
        let prediction = [TrackRow(frame: 0, trackID: nil, box: box(100), confidence: 0.7),
                          TrackRow(frame: 0, trackID: nil, box: box(0), confidence: 0.9),
                          TrackRow(frame: 0, trackID: nil, box: box(50), confidence: 0.8)]
        XCTAssertEqual(try evaluate(truth, prediction).detection.averagePrecision ?? -1, 0.5 + 1.0 / 3, accuracy: 1e-12)
    }

    func testEyeErrorIsNormalisedByTrueEyeDistance() throws {
        let truth = [TrackRow(frame: 0, trackID: 1, box: box(0, 0, 20), leftEye: Point(x: 0, y: 0), rightEye: Point(x: 10, y: 0))]
        let prediction = [TrackRow(frame: 0, trackID: 1, box: box(0, 0, 20), leftEye: Point(x: 1, y: 0), rightEye: Point(x: 10, y: 1))]
        let r = try evaluate(truth, prediction)
        XCTAssertEqual(r.detection.eyeError ?? -1, 0.1, accuracy: 1e-12)
        XCTAssertEqual(r.detection.eyePairs, 1)
        let noEyes = try evaluate(truth, [TrackRow(frame: 0, trackID: 1, box: box(0, 0, 20))])
        XCTAssertNil(noEyes.detection.eyeError)
    }

    /// CLEAR MOT keeps last frame's pair while it still overlaps, even if another box fits better.
    func testCorrespondenceIsKeptAcrossFrames() throws {
        let truth = (0..<3).map { TrackRow(frame: $0, trackID: 1, box: box(0)) }
        let prediction = truth.map { TrackRow(frame: $0.frame, trackID: 5, box: box($0.frame == 0 ? 0 : 2)) }
            + [TrackRow(frame: 1, trackID: 6, box: box(0)), TrackRow(frame: 2, trackID: 6, box: box(0))]
        let r = try evaluate(truth, prediction)
        XCTAssertEqual(r.tracking.idSwitches, 0)
        XCTAssertEqual(r.tracking.falsePositives, 2)
        XCTAssertEqual(r.detection.falsePositives, 2)
    }

    func testEmptyTruthLeavesRatiosUndefined() throws {
        let r = try evaluate([], [], frames: [0, 1, 2])
        XCTAssertNil(r.detection.recall)
        XCTAssertNil(r.detection.precision)
        XCTAssertNil(r.tracking.mota)
        XCTAssertEqual(r.frames, 3)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.json().utf8)) as? [String: Any])
        XCTAssertTrue(json["recall"] is NSNull, "\(json)")
        XCTAssertEqual(json["frames"] as? Int, 3)
        XCTAssertTrue(r.table().contains("n/a"))
    }

    func testShiftedFrameTimesAreAnError() throws {
        let truth = try TrackTable.parse("frame,time,track_id,x,y,width,height,confidence\n0,0.00,1,0,0,10,10,1\n1,0.04,1,0,0,10,10,1\n",
                                         path: "truth.csv")
        let shifted = try TrackTable.parse("frame,time,track_id,x,y,width,height,confidence\n0,0.00,1,0,0,10,10,1\n1,0.08,1,0,0,10,10,1\n",
                                           path: "pred.csv")
        XCTAssertThrowsError(try Evaluator().evaluate(truth: truth, prediction: shifted)) { error in
            XCTAssertEqual("\(error)", "pred.csv:3: frame 1 is at 0.08 s, the truth's frame 1 at 0.04 s")
        }
        XCTAssertEqual(try Evaluator().evaluate(truth: truth, prediction: truth).detection.truePositives, 2)
    }

    func testPredictionFrameBeyondTruthIsAnError() throws {
        let truth = TrackTable(path: "truth.csv", rows: [TrackRow(frame: 0, trackID: 1, box: box(0))], frames: [0, 1])
        let prediction = try TrackTable.parse("frame,track_id,x,y,width,height,confidence\n1,1,0,0,10,10,0.9\n5,1,0,0,10,10,0.9\n",
                                              path: "pred.csv")
        XCTAssertThrowsError(try Evaluator().evaluate(truth: truth, prediction: prediction)) { error in
            XCTAssertEqual("\(error)", "pred.csv:3: frame 5 is not in the truth (its frames: 0-1)")
        }
    }
}
