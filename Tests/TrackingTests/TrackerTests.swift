import XCTest
import Foundation
import FaceCore
@testable import Tracking

final class TrackerTests: XCTestCase {
    func testFaceGetsIDAfterMinHitsAndKeepsIt() {
        let tracker = Tracker()
        let rows = feed(tracker, (0..<20).map { i in [face(100 + 3 * Double(i), 100)] })
        XCTAssertEqual(rows[0].first?.trackID, nil)
        XCTAssertEqual(rows[1].first?.trackID, nil)
        XCTAssertEqual(rows[2].first?.trackID, 1)
        XCTAssertEqual(rows[2].first?.trackFrameCount, 3)
        for frameRows in rows[2...] {
            XCTAssertEqual(frameRows.count, 1)
            XCTAssertEqual(frameRows.first?.trackID, 1)
            XCTAssertEqual(frameRows.first?.source, .detected)
        }
        XCTAssertEqual(tracker.confirmedTrackCount, 1)
        XCTAssertEqual(tracker.longestTrackFrameCount, 20)
    }

    func testTwoFacesCrossingKeepTheirIDs() throws {
        var random = SplitMix(seed: 11)
        let tracker = Tracker()
        // One face moves right, the other left, 7 px a frame, passing each other
        // between frames 28 and 29, where boxes that stayed at their last place would swap faces.
        let frames: [[FaceObservation]?] = (0..<50).map { i in
            let t = Double(i)
            return [face(100 + 7 * t + random.noise(1.5), 300 + random.noise(1.5)),
                    face(500 - 7 * t + random.noise(1.5), 300 + random.noise(1.5))]
        }
        let rows = feed(tracker, frames)
        let rightward = try XCTUnwrap(row(near: 100 + 7 * 5, 300, in: rows[5])?.trackID)
        let leftward = try XCTUnwrap(row(near: 500 - 7 * 5, 300, in: rows[5])?.trackID)
        XCTAssertNotEqual(rightward, leftward)
        for i in 5..<50 {
            let t = Double(i)
            XCTAssertEqual(row(near: 100 + 7 * t, 300, in: rows[i])?.trackID, rightward, "frame \(i)")
            XCTAssertEqual(row(near: 500 - 7 * t, 300, in: rows[i])?.trackID, leftward, "frame \(i)")
        }
        XCTAssertEqual(tracker.confirmedTrackCount, 2)
    }

    func testFaceHiddenForTenFramesGetsItsIDBack() {
        var random = SplitMix(seed: 5)
        let tracker = Tracker()  // maxAge 30
        let frames: [[FaceObservation]?] = (0..<50).map { i in
            (20..<30).contains(i) ? [] : [face(400 + random.noise(2), 300 + random.noise(2))]
        }
        let rows = feed(tracker, frames)
        XCTAssertEqual(rows[19].first?.trackID, 1)
        // Reported as predicted for `reportMissedFrames` (2) missed frames, then nothing.
        XCTAssertEqual(rows[20].first?.source, .predicted)
        XCTAssertEqual(rows[21].first?.source, .predicted)
        XCTAssertTrue(rows[22..<30].allSatisfy { $0.isEmpty })
        XCTAssertEqual(rows[30].first?.trackID, 1)
        XCTAssertEqual(rows[30].first?.source, .detected)
        XCTAssertEqual(rows[49].first?.trackID, 1)
        XCTAssertEqual(tracker.confirmedTrackCount, 1)
    }

    /// A walking face hidden for 13 frames reappears 34 px behind its forecast (it slowed down):
    /// IoU 0.23 with the forecast, too little for the first pass; the recovery pass compares
    /// buffered boxes and gives the face its ID back. Without it the face starts a new track.
    func testFaceReappearingOffItsForecastGetsItsIDBackThroughTheRecoveryPass() {
        func run(buffer: Double) -> [[TrackedFace]] {
            let tracker = Tracker(configuration: TrackerConfiguration(recoveryBuffer: buffer))
            let frames: [[FaceObservation]?] = (0..<45).map { i in
                if (20..<33).contains(i) { return [] }
                let x = i < 20 ? 1000 - 12 * Double(i) : 1000 - 12 * Double(i) + 34
                return [face(x, 400, size: 54)]
            }
            return feed(tracker, frames)
        }
        let recovered = run(buffer: TrackerConfiguration().recoveryBuffer)
        XCTAssertEqual(recovered[19].first?.trackID, 1)
        XCTAssertEqual(recovered[33].first?.trackID, 1)
        XCTAssertEqual(recovered[44].first?.trackID, 1)
        let plain = run(buffer: 0)
        XCTAssertEqual(plain[19].first?.trackID, 1)
        XCTAssertEqual(plain[44].first?.trackID, 2, "without the recovery pass the face starts a new track")
    }

    /// The recovery pass never takes a detection the first pass matched: two faces side by side,
    /// one hidden for a while, the other keeps its ID and the hidden one gets its own back.
    func testRecoveryPassLeavesMatchedDetectionsAlone() {
        let tracker = Tracker()
        let frames: [[FaceObservation]?] = (0..<40).map { i in
            let left = face(400, 300, size: 60), right = face(470, 300, size: 60)
            return (15..<25).contains(i) ? [left] : [left, right]
        }
        let rows = feed(tracker, frames)
        XCTAssertEqual(row(near: 400, 300, in: rows[39])?.trackID, 1)
        XCTAssertEqual(row(near: 470, 300, in: rows[39])?.trackID, 2)
        XCTAssertEqual(tracker.confirmedTrackCount, 2)
    }

    func testFaceReturningAfterMaxAgeGetsANewID() {
        let tracker = Tracker(configuration: TrackerConfiguration(maxAge: 5))
        let frames: [[FaceObservation]?] = (0..<40).map { i in (15..<25).contains(i) ? [] : [face(400, 300)] }
        let rows = feed(tracker, frames)
        XCTAssertEqual(rows[14].first?.trackID, 1)
        XCTAssertNil(rows[25].first?.trackID, "a new tentative track")
        XCTAssertEqual(rows[27].first?.trackID, 2)
        XCTAssertEqual(rows[39].first?.trackID, 2)
        XCTAssertEqual(tracker.trackSummaries.map(\.id), [1, 2])
    }

    func testMovingFaceReturningFarAwayGetsANewID() {
        // Same as above but the face re-enters on the other side: no IoU with the old prediction.
        let tracker = Tracker()
        let frames: [[FaceObservation]?] = (0..<30).map { i in
            i < 10 ? [face(100, 100)] : (i < 15 ? [] : [face(900, 500)])
        }
        let rows = feed(tracker, frames)
        XCTAssertEqual(rows[9].first?.trackID, 1)
        XCTAssertEqual(rows[29].first?.trackID, 2)
    }

    func testOneFrameFalseDetectionIsNeverConfirmed() {
        let tracker = Tracker()
        let frames: [[FaceObservation]?] = (0..<20).map { i in
            i == 7 ? [face(200, 200), face(700, 400, confidence: 0.95)] : [face(200, 200)]
        }
        let rows = feed(tracker, frames)
        XCTAssertEqual(rows[7].count, 2)
        XCTAssertEqual(row(near: 700, 400, in: rows[7])?.trackID, nil, "reported without an ID")
        XCTAssertTrue(rows[8...].allSatisfy { $0.count == 1 })
        XCTAssertEqual(tracker.confirmedTrackCount, 1)
    }

    func testAFaceOnlyANeighboursCropFindsGetsNoIDUntilALookStraightAtItFindsIt() {
        // The pipeline's tracker: reports from 0.2, starts tracks from 0.5, so a direct look needs 0.25.
        var configuration = TrackerConfiguration()
        configuration.highThreshold = 0.2
        configuration.birthThreshold = 0.5
        XCTAssertEqual(configuration.directLookThreshold, 0.25)
        // p26's sofa cushion, in short: the crop around the real face finds it at 0.5 to 0.6 every
        // frame, its own crop at 0.19 at best (frame 12), and at 0.3 on frame 20.
        func cushion(_ i: Int) -> FaceObservation {
            var observation = face(300, 200, size: 28, confidence: 0.55)
            observation.directConfidence = i == 12 ? 0.19 : i == 20 ? 0.3 : 0
            return observation
        }
        let tracker = Tracker(configuration: configuration)
        let rows = feed(tracker, (0..<30).map { i in [face(100, 100), cushion(i)] })
        for i in 0..<20 {
            XCTAssertEqual(row(near: 300, 200, in: rows[i])?.trackID, nil, "frame \(i): tentative, reported without an ID")
        }
        XCTAssertEqual(row(near: 300, 200, in: rows[20])?.trackID, 2, "the direct look at 0.3 confirms it")
        XCTAssertEqual(row(near: 100, 100, in: rows[2])?.trackID, 1, "a face seen directly is confirmed after minHits as before")

        // Never seen directly: no ID, not even at the end of the input.
        let neighbourOnly = Tracker(configuration: configuration)
        let neighbourRows = feed(neighbourOnly, (0..<10).map { i in [face(100, 100), cushion(i)] })
        XCTAssertTrue(neighbourRows.allSatisfy { row(near: 300, 200, in: $0)?.trackID == nil })
        XCTAssertEqual(neighbourOnly.confirmAtEnd().count, 0)
        XCTAssertEqual(neighbourOnly.confirmedTrackCount, 1)
    }

    func testDetectionEveryFifthFrameKeepsOneIDWithPredictedRowsBetween() throws {
        let tracker = Tracker()
        let frames: [[FaceObservation]?] = (0..<60).map { i in
            i % 5 == 0 ? [face(100 + 4 * Double(i), 200 + 1 * Double(i))] : nil
        }
        let rows = feed(tracker, frames)
        // Confirmed on the third detector run (frame 10); nothing is reported for a tentative track in between.
        XCTAssertTrue(rows[1..<5].allSatisfy { $0.isEmpty })
        for i in 10..<60 {
            let row = try XCTUnwrap(rows[i].first, "frame \(i)")
            XCTAssertEqual(rows[i].count, 1)
            XCTAssertEqual(row.trackID, 1, "frame \(i)")
            XCTAssertEqual(row.source, i % 5 == 0 ? .detected : .predicted, "frame \(i)")
            XCTAssertEqual(row.trackFrameCount, i - 10 + 3)
        }
        // Once the velocity is known, predictions between detections land on the true path,
        // and the landmarks move with the box.
        for i in 31..<35 {
            let predicted = rows[i][0].observation
            XCTAssertEqual(predicted.bounds.center.x, 100 + 4 * Double(i), accuracy: 2, "frame \(i)")
            XCTAssertEqual(predicted.bounds.center.y, 200 + Double(i), accuracy: 2, "frame \(i)")
            let eye = try XCTUnwrap(predicted.leftEye)
            XCTAssertEqual(eye.x - predicted.bounds.center.x, -12, accuracy: 0.5)
        }
        XCTAssertEqual(tracker.confirmedTrackCount, 1)
    }

    func testReupdateAfterAGapReplaysTheStraightPath() {
        // OC-SORT's observation-centric re-update: a track that misses frames 11-19 of a straight
        // path ends up with exactly the filter of a track that saw every frame. A plain Kalman
        // update after the gap leaves a larger, different covariance.
        let steady = Track(serial: 1, observation: face(100, 100, size: 80))
        let gapped = Track(serial: 2, observation: face(100, 100, size: 80))
        for i in 1...25 {
            let observation = face(100 + 4 * Double(i), 100 - Double(i), size: 80 + Double(i))
            steady.predict()
            steady.update(with: observation)
            gapped.predict()
            if i <= 10 || i >= 20 { gapped.update(with: observation) }
        }
        for k in 0..<7 { XCTAssertEqual(gapped.filter.state[k], steady.filter.state[k], accuracy: 1e-9, "state \(k)") }
        for k in 0..<49 { XCTAssertEqual(gapped.filter.covariance[k], steady.filter.covariance[k], accuracy: 1e-9, "P \(k)") }
    }

    func testIDsAreDeterministic() {
        func scenario() -> [[TrackedFace]] {
            var random = SplitMix(seed: 99)
            let tracker = Tracker()
            let frames: [[FaceObservation]?] = (0..<80).map { i in
                if i % 3 == 2 { return nil }
                var faces: [FaceObservation] = []
                for k in 0..<12 where random.uniform() > 0.1 {
                    let x = 80 + Double(k % 4) * 150 + Double(i) * (k.isMultiple(of: 2) ? 2 : -2)
                    faces.append(face(x + random.noise(3), 100 + Double(k / 4) * 150 + random.noise(3),
                                      size: 50 + random.noise(4), confidence: 0.3 + 0.7 * random.uniform()))
                }
                if random.uniform() < 0.2 { faces.append(face(random.uniform() * 600, random.uniform() * 500)) }
                return faces
            }
            return feed(tracker, frames)
        }
        let first = scenario(), second = scenario()
        XCTAssertEqual(first, second)
        XCTAssertGreaterThan(first.flatMap { $0 }.compactMap(\.trackID).count, 300)
    }

    /// A still face whose confidence dips to 0.3 for 10 frames, with maxAge 5.
    private func dip(secondPass: Bool) -> (Tracker, [[TrackedFace]]) {
        let tracker = Tracker(configuration: TrackerConfiguration(maxAge: 5, secondPass: secondPass))
        let frames: [[FaceObservation]?] = (0..<40).map { i in
            [face(300 + Double(i), 300, confidence: (15..<25).contains(i) ? 0.3 : 0.9)]
        }
        return (tracker, feed(tracker, frames))
    }

    func testLowConfidenceDipKeepsTheIDWithSecondPass() {
        let (tracker, rows) = dip(secondPass: true)
        for i in 2..<40 {
            XCTAssertEqual(rows[i].first?.trackID, 1, "frame \(i)")
            XCTAssertEqual(rows[i].first?.source, .detected, "frame \(i)")
        }
        XCTAssertEqual(rows[20].first?.observation.confidence, 0.3)
        XCTAssertEqual(tracker.confirmedTrackCount, 1)
    }

    func testLowConfidenceDipLosesTheIDWithoutSecondPass() {
        let (tracker, rows) = dip(secondPass: false)
        XCTAssertEqual(rows[14].first?.trackID, 1)
        XCTAssertTrue(rows[17..<25].allSatisfy { $0.isEmpty }, "low-score detections are not reported")
        XCTAssertEqual(rows[39].first?.trackID, 2)
        XCTAssertEqual(tracker.confirmedTrackCount, 2)
    }

    func testLowScoreDetectionsNeverStartTracks() {
        let tracker = Tracker()
        let rows = feed(tracker, (0..<10).map { _ in [face(100, 100, confidence: 0.3)] })
        XCTAssertTrue(rows.allSatisfy { $0.isEmpty })
        XCTAssertEqual(tracker.confirmedTrackCount, 0)
    }

    func testBrokenDetectionsAreDroppedAndCounted() {
        let tracker = Tracker()
        var broken = [
            FaceObservation(bounds: Rect(x: .nan, y: 0, width: 10, height: 10), confidence: 0.9),
            FaceObservation(bounds: Rect(x: 0, y: .infinity, width: 10, height: 10), confidence: 0.9),
            FaceObservation(bounds: Rect(x: 0, y: 0, width: 0, height: 10), confidence: 0.9),
            FaceObservation(bounds: Rect(x: 0, y: 0, width: 10, height: -5), confidence: 0.9),
            FaceObservation(bounds: Rect(x: 0, y: 0, width: 10, height: 10), confidence: .nan),
            FaceObservation(bounds: Rect(x: 1e300, y: 0, width: 1e300, height: 1e300), confidence: 0.9),
        ]
        var good = face(500, 500)
        good.mouth = Point(x: .nan, y: 3)
        broken.append(good)
        var rows: [[TrackedFace]] = []
        for i in 0..<5 { rows.append(tracker.update(frame: i, time: Double(i) / 30, detections: broken)) }
        XCTAssertEqual(tracker.droppedDetectionCount, 30)
        XCTAssertTrue(rows.allSatisfy { $0.count == 1 })
        XCTAssertEqual(rows[4].first?.trackID, 1)
        XCTAssertNil(rows[4].first?.observation.mouth, "a non-finite landmark is removed")
    }

    func testOddTimestampsAndEmptyFramesNeverBreakTheOutput() throws {
        let tracker = Tracker()
        let times: [Double] = [0, 0.033, 0.033, 0.02, .nan, 5.0, 5.03, -1, .infinity, 5.1, 5.13, 5.16]
        var last: [TrackedFace] = []
        for (i, time) in times.enumerated() {
            let detections: [FaceObservation]? = i == 3 ? [] : (i == 6 ? nil : [face(200 + Double(i), 200)])
            last = tracker.update(frame: i, time: time, detections: detections)
            for row in last {
                let b = row.display.bounds
                XCTAssertTrue(b.isValid, "frame \(i): \(b)")
                XCTAssertTrue(row.display.leftEye?.isFinite ?? false)
            }
        }
        XCTAssertEqual(last.first?.trackID, 1)
        XCTAssertEqual(tracker.update(frame: 99, time: 9, detections: nil).count, 1)
        // The summary stays encodable.
        let summary = try XCTUnwrap(tracker.trackSummaries.first)
        XCTAssertTrue(summary.firstTime.isFinite && summary.lastTime.isFinite)
    }

    func testHundredsOfFacesInOneFrame() {
        let tracker = Tracker()
        // 400 faces of 40 px on a 20 x 20 grid 50 px apart, moving 2 px a frame.
        var frames: [[FaceObservation]?] = []
        for i in 0..<5 {
            var faces: [FaceObservation] = []
            for k in 0..<400 {
                let x = 50 + Double(k % 20) * 50 + 2 * Double(i), y = 50 + Double(k / 20) * 50
                faces.append(face(x, y, size: 40))
            }
            frames.append(faces)
        }
        let rows = feed(tracker, frames)
        XCTAssertEqual(rows[4].count, 400)
        XCTAssertEqual(Set(rows[4].compactMap(\.trackID)).count, 400)
        XCTAssertEqual(tracker.confirmedTrackCount, 400)
        // IDs go to tracks in creation order, which follows the detection order here.
        XCTAssertEqual(rows[4].compactMap(\.trackID), Array(1...400))
        XCTAssertEqual(row(near: 50 + 19 * 50 + 8, 50 + 19 * 50, in: rows[4])?.trackID, 400)
    }

    func testRandomGarbageKeepsEveryInvariant() {
        var random = SplitMix(seed: 2024)
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -5, 1e9, -1e9, 1e-300]
        func value(_ normal: Double) -> Double {
            random.uniform() < 0.05 ? specials[Int(random.uniform() * Double(specials.count))] : normal
        }
        for secondPass in [true, false] {
            let tracker = Tracker(configuration: TrackerConfiguration(minHits: 2, maxAge: 8, secondPass: secondPass))
            var time = 0.0
            for frame in 0..<300 {
                time += random.uniform() < 0.05 ? -0.5 : 1.0 / 30
                let frameTime = random.uniform() < 0.02 ? Double.nan : time
                var detections: [FaceObservation]? = nil
                if random.uniform() > 0.3 {
                    let count = random.uniform() < 0.05 ? 150 : Int(random.uniform() * 8)
                    detections = (0..<count).map { k in
                        var f = face(value(100 + Double(k % 8) * 90 + random.noise(6)), value(200 + random.noise(6)),
                                     size: value(60 + random.noise(5)), confidence: value(random.uniform()))
                        f.nose = Point(x: value(3), y: value(4))
                        return f
                    }
                }
                let rows = tracker.update(frame: frame, time: frameTime, detections: detections)
                let ids = rows.compactMap(\.trackID)
                XCTAssertEqual(Set(ids).count, ids.count, "an ID twice in frame \(frame)")
                XCTAssertEqual(ids, ids.sorted(), "rows sorted by ID")
                for row in rows {
                    XCTAssertTrue(row.observation.bounds.isValid && row.display.bounds.isValid, "frame \(frame)")
                    XCTAssertTrue(row.display.nose?.isFinite ?? true)
                    XCTAssertLessThanOrEqual(row.trackID ?? 0, tracker.confirmedTrackCount)
                    if row.source == .predicted { XCTAssertNotNil(row.trackID) }
                    XCTAssertGreaterThanOrEqual(row.trackFrameCount, 1)
                }
            }
            XCTAssertGreaterThan(tracker.droppedDetectionCount, 0)
            XCTAssertGreaterThan(tracker.confirmedTrackCount, 0)
            XCTAssertEqual(tracker.trackSummaries.map(\.id), Array(1...tracker.confirmedTrackCount))
            XCTAssertNoThrow(try JSONEncoder().encode(tracker.summary))
        }
    }

    func testFacesPartlyOutsideTheFrameAreTracked() {
        let tracker = Tracker()
        let rows = feed(tracker, (0..<6).map { i in [face(-10 + Double(i), -20, size: 60)] })
        XCTAssertEqual(rows[5].first?.trackID, 1)
    }

    func testMissedDetectionsAreReportedAsPredictedForAWhile() {
        let tracker = Tracker(configuration: TrackerConfiguration(reportMissedFrames: 1))
        let frames: [[FaceObservation]?] = (0..<15).map { i in
            switch i {
            case 5: return []           // detector missed once
            case 6: return nil          // detector did not run
            case 8, 9: return []        // missed twice
            default: return [face(300, 300)]
            }
        }
        let rows = feed(tracker, frames)
        XCTAssertEqual(rows[5].first?.source, .predicted)
        XCTAssertEqual(rows[5].first?.trackID, 1)
        XCTAssertEqual(rows[6].first?.source, .predicted, "between detector runs after one miss")
        XCTAssertEqual(rows[8].first?.source, .predicted)
        XCTAssertTrue(rows[9].isEmpty, "the second miss in a row is not reported")
        XCTAssertEqual(rows[10].first?.source, .detected)
        XCTAssertEqual(rows[10].first?.trackID, 1)
    }

    func testSmoothingSteadiesDisplayAndCanBeTurnedOff() {
        func jitter(smoothing: Bool) -> (display: Double, observed: Double, equal: Bool) {
            var random = SplitMix(seed: 21)
            let tracker = Tracker(configuration: TrackerConfiguration(smoothing: smoothing))
            let rows = feed(tracker, (0..<120).map { _ in [face(640 + random.noise(4), 360 + random.noise(4), size: 100)] })
            let steady = rows[30...].map { $0[0] }
            func spread(_ xs: [Double]) -> Double { xs.max()! - xs.min()! }
            return (spread(steady.map(\.display.bounds.center.x)), spread(steady.map(\.observation.bounds.center.x)),
                    steady.allSatisfy { $0.display == $0.observation })
        }
        let on = jitter(smoothing: true), off = jitter(smoothing: false)
        XCTAssertLessThan(on.display, 0.5 * on.observed)
        XCTAssertFalse(on.equal)
        XCTAssertTrue(off.equal)
    }

    func testSummaryCountsFramesAndConfidence() throws {
        let tracker = Tracker()
        let frames: [[FaceObservation]?] = (0..<10).map { i in
            i == 6 ? nil : [face(100, 100, confidence: i.isMultiple(of: 2) ? 0.8 : 0.6)]
        }
        _ = feed(tracker, frames)
        let summary = try XCTUnwrap(tracker.trackSummaries.first)
        XCTAssertEqual(summary.id, 1)
        XCTAssertEqual(summary.firstFrame, 0)
        XCTAssertEqual(summary.lastFrame, 9)
        XCTAssertEqual(summary.frameCount, 10)
        XCTAssertEqual(summary.detectedFrameCount, 9)
        XCTAssertEqual(summary.meanConfidence, (4 * 0.8 + 5 * 0.6) / 9, accuracy: 1e-12)
        XCTAssertEqual(summary.lastTime, 9.0 / 30, accuracy: 1e-12)
    }

    func testConfigurationFromFrameRate() {
        XCTAssertEqual(TrackerConfiguration(framesPerSecond: 25).maxAge, 25)
        XCTAssertEqual(TrackerConfiguration(framesPerSecond: 59.94).maxAge, 60)
        XCTAssertEqual(TrackerConfiguration(framesPerSecond: .nan).maxAge, 30)
        XCTAssertEqual(TrackerConfiguration(framesPerSecond: 0.2).maxAge, 1)
        let odd = TrackerConfiguration(minHits: -3, maxAge: 0, highThreshold: .nan, lowThreshold: 0.9).sanitized
        XCTAssertEqual(odd.minHits, 1)
        XCTAssertEqual(odd.maxAge, 1)
        XCTAssertEqual(odd.highThreshold, 0.5)
        XCTAssertEqual(odd.lowThreshold, 0.5)
    }
}
