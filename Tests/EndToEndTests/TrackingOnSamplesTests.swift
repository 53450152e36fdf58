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

    /// `--accuracy low` (BlazeFace: a crop costs a whole-frame pass) looks at the whole frame on
    /// every frame; the same detector with `--detection adaptive` runs crops and tiles.
    func testAccuracyLowLooksAtTheWholeFrameUnlessAdaptiveIsAskedFor() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples").path
        let folder = try TemporaryFolder()
        func summary(_ options: [String]) throws -> String {
            let run = try Tools.run(Tools.facetrack, ["process", samples + "/crossing.mp4", "--csv", folder.file("t.csv")] + options)
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stderr
        }
        let low = try summary(["--accuracy", "low"])
        XCTAssertTrue(low.contains("2 tracks"), low)
        XCTAssertFalse(low.contains("crops"), "whole-frame passes only: \(low)")
        let adaptive = try summary(["--accuracy", "low", "--detection", "adaptive"])
        XCTAssertTrue(adaptive.contains("crops"), adaptive)
    }
}
