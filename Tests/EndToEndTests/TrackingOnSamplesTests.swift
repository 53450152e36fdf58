import Foundation
import TestSupport
import XCTest

/// The tracker on real video: two faces crossing paths in the bundled reference clip keep their IDs.
final class TrackingOnSamplesTests: XCTestCase {
    func testCrossingFacesKeepTheirIDs() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples").path
        let folder = try TemporaryFolder()
        let csv = folder.file("crossing.csv")
        let run = try Tools.run(Tools.facetrack, ["process", samples + "/crossing.mp4", "--csv", csv,
                                                  "--detector", "blazeface", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let eval = try Tools.run(Tools.facetrack, ["eval", "--truth", samples + "/crossing.truth.csv", "--pred", csv, "--json"])
        XCTAssertEqual(eval.status, 0, eval.stderr)
        let metrics = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(eval.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(metrics["id_switches"] as? Int, 0)
        XCTAssertEqual(metrics["predicted_tracks"] as? Int, 2, "one track per face")
        XCTAssertGreaterThan(metrics["idf1"] as? Double ?? 0, 0.9)
    }
}
