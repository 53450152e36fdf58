import Foundation
@testable import Pipeline
import Rendering
import TestSupport
import XCTest

/// Re-identification runs only when an output shows what it decides, the track IDs: an overlaid
/// copy of boxes and eyes is the same picture whoever the faces are (docs/identity.md, "Only when
/// an output shows IDs").
final class TrackIDOutputTests: XCTestCase {
    private var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    func testACopyOfBoxesAndEyesEmbedsNoFaceAndOutputsThatShowIDsDo() throws {
        _ = try InstalledModels.path("dlib_face_recognition_resnet_model_v1.dat")  // a clear error without the models
        let folder = try TemporaryFolder()
        // Two faces passing each other, one behind a pillar: tracks that re-identification links.
        var job = FaceTrackJob(input: repository + "/samples/crossing.mp4", outputs: JobOutputs(video: folder.file("plain.mp4")),
                               threads: 2)
        XCTAssertFalse(job.showsTrackIDs)
        let plain = try job.run()
        XCTAssertGreaterThan(plain.faces, 0)
        XCTAssertEqual(plain.embeddedFaces, 0, "no output shows an ID")

        job.outputs = JobOutputs(video: folder.file("with-csv.mp4"), csv: folder.file("tracks.csv"))
        XCTAssertGreaterThan(try job.run().embeddedFaces, 0, "the CSV shows IDs")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder.file("plain.mp4"))),
                       try Data(contentsOf: URL(fileURLWithPath: folder.file("with-csv.mp4"))),
                       "the same copy either way")

        for outputs in [JobOutputs(json: folder.file("t.jsonl")), JobOutputs(mot: folder.file("t.txt")),
                        JobOutputs(tracksSummary: folder.file("t.json")), JobOutputs(report: folder.file("r.html"))] {
            job.outputs = outputs
            XCTAssertTrue(job.showsTrackIDs, "\(outputs)")
        }
        job.outputs = JobOutputs(video: folder.file("labels.mp4"))
        job.overlay.kinds.insert(.labels)
        XCTAssertTrue(job.showsTrackIDs)
        XCTAssertGreaterThan(try job.run().embeddedFaces, 0, "labels show IDs")
    }
}
