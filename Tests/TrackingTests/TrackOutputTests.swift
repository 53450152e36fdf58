import XCTest
import Foundation
import FaceCore
@testable import Tracking

final class TrackOutputTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "tracking-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testMOTRowsCountFramesFromOneAndSkipTentativeTracks() throws {
        let path = directory + "/out.txt"
        let writer = try MOTChallengeWriter(path: path)
        var a = FaceObservation(bounds: Rect(x: 10, y: 20.5, width: 30.25, height: 40), confidence: 0.87654)
        a.leftEye = Point(x: 1, y: 2)
        let b = FaceObservation(bounds: Rect(x: -3.004, y: 0, width: 5, height: 6), confidence: 1)
        try writer.write(frameIndex: 0, faces: [TrackedFace(observation: a, trackID: 1),
                                                TrackedFace(observation: b, trackID: nil)])
        try writer.write(frameIndex: 1, faces: [TrackedFace(observation: b, trackID: 2, source: .predicted)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing at the target before finish()")
        try writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(text, "1,1,10.00,20.50,30.25,40.00,0.8765,-1,-1,-1\n2,2,-3.00,0.00,5.00,6.00,1.0000,-1,-1,-1\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
        XCTAssertEqual(leftovers, ["out.txt"], "the temporary file was renamed")
        XCTAssertThrowsError(try writer.finish())
    }

    func testFixedDecimals() {
        XCTAssertEqual(MOTChallengeWriter.fixed(0.005, 2), "0.01")
        XCTAssertEqual(MOTChallengeWriter.fixed(-0.001, 2), "0.00")
        XCTAssertEqual(MOTChallengeWriter.fixed(123.456, 1), "123.5")
        XCTAssertEqual(MOTChallengeWriter.fixed(7, 0), "7")
        XCTAssertEqual(MOTChallengeWriter.fixed(.nan, 2), "0")
    }

    func testUnfinishedWriterLeavesNoFile() throws {
        let path = directory + "/gone.txt"
        do {
            let writer = try MOTChallengeWriter(path: path)
            try writer.write(frameIndex: 0, faces: [TrackedFace(observation: face(5, 5), trackID: 1)])
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
    }

    func testErrorsNameThePathOnOneLine() {
        let path = directory + "/missing/folder/out.txt"
        XCTAssertThrowsError(try MOTChallengeWriter(path: path)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasPrefix(path + ":"), text)
            XCTAssertFalse(text.contains("\n"))
        }
        XCTAssertThrowsError(try TrackSummaryWriter.write(Tracker().summary, to: path))
    }

    func testSummaryJSONRoundTripsTheTrackerSummary() throws {
        let tracker = Tracker()
        let frames: [[FaceObservation]?] = (0..<12).map { i in
            i < 6 ? [face(100, 100), face(400, 100)] : [face(100, 100)]
        }
        _ = feed(tracker, frames)
        let path = directory + "/tracks.json"
        try TrackSummaryWriter.write(tracker.summary, to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let decoded = try decoder.decode(TrackingSummary.self, from: data)
        XCTAssertEqual(decoded, tracker.summary)
        XCTAssertEqual(decoded.confirmedTrackCount, 2)
        XCTAssertEqual(decoded.longestTrackFrameCount, 12)
        XCTAssertEqual(decoded.tracks.map(\.id), [1, 2])
        XCTAssertEqual(decoded.tracks[1].lastFrame, 7, "two predicted frames after the face left")
        XCTAssertEqual(decoded.tracks[1].detectedFrameCount, 6)
        let text = try XCTUnwrap(String(data: data, encoding: .utf8))
        XCTAssertTrue(text.contains("\"mean_confidence\""))
        XCTAssertTrue(text.contains("\"longest_track_frame_count\" : 12"))
    }
}
