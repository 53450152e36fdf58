import Foundation
import TestSupport
import XCTest

/// A run's output does not depend on how many threads it ran on: a CI job on an 8-core runner
/// compares its CSVs with goldens made on a laptop (adaptive detection used to plan each frame
/// from tracks as many frames back as there were lanes).
final class ThreadCountTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    func testTracksCSVIsTheSameWithOneTwoAndThreeThreads() throws {
        let folder = try TemporaryFolder()
        // Default settings (adaptive detection with CenterFace, re-identification); a face that
        // leaves and comes back, so keyframes, crops and the look-back all take part.
        var outputs: [String] = []
        for threads in [1, 2, 3] {
            let csv = folder.file("t\(threads).csv")
            let result = try Tools.run(Tools.facetrack, ["process", Self.samples + "/exit-return-long.mp4", "--csv", csv,
                                                         "--threads", String(threads), "--quiet"])
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs.append(try String(contentsOfFile: csv, encoding: .utf8))
        }
        XCTAssertGreaterThan(outputs[0].split(separator: "\n").count, 40, "faces found")
        XCTAssertEqual(outputs[0], outputs[1], "--threads 1 and --threads 2 give the same CSV")
        XCTAssertEqual(outputs[1], outputs[2], "--threads 2 and --threads 3 give the same CSV")
    }
}
