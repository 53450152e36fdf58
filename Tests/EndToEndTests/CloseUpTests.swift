import Foundation
import TestSupport
import XCTest

/// A face that fills or overflows the picture (forehead and chin cut off) is too large for the
/// whole-frame pass; the close-up pass finds it, the crops keep it tracked, --anonymize masks it.
/// Made from the grace_hopper fixture: its face (100 px high) in a 114 x 64 crop enlarged to 640 x 360.
final class CloseUpTests: XCTestCase {
    private let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DetectionTests/Fixtures/grace_hopper.ppm").path
    private let closeUp = "crop=113:64:55:60,scale=640:360"

    private func rows(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// Before the close-up pass the still gave a 0.27 face clipped to the picture (below the 0.5
    /// that starts a track); now one face at 0.5 or more.
    func testDetectFindsAFaceLargerThanThePicture() throws {
        let folder = try TemporaryFolder()
        let image = folder.file("close.png")
        try Tools.ffmpeg(["-v", "error", "-y", "-i", fixture, "-vf", closeUp, image])
        let run = try Tools.run(Tools.facetrack, ["detect", image])
        XCTAssertEqual(run.status, 0, run.stderr)
        let faces = rows(run.stdout)
        XCTAssertEqual(faces.count, 1, run.stdout)
        XCTAssertGreaterThanOrEqual(Double(faces.first?["confidence"] ?? "") ?? 0, 0.5, run.stdout)
        // The face's box spans the picture's height (clamped to it).
        XCTAssertGreaterThan(Double(faces.first?["height"] ?? "") ?? 0, 300, run.stdout)
        // The still through `process --anonymize`: masked as a tracked face (before: a 0.27 tentative mask).
        let anonymized = try Tools.run(Tools.facetrack, ["process", image, "--anonymize", "blur", "-o", folder.file("out.png"),
                                                         "--csv", folder.file("a.csv"), "--quiet"])
        XCTAssertEqual(anonymized.status, 0, anonymized.stderr)
        let masked = rows(try String(contentsOfFile: folder.file("a.csv"), encoding: .utf8))
        XCTAssertEqual(masked.count, 1)
        XCTAssertFalse((masked.first?["track_id"] ?? "").isEmpty, "\(masked)")
        XCTAssertGreaterThan(Double(masked.first?["mask_height"] ?? "") ?? 0, 300, "\(masked)")
    }

    /// A 2-second close-up, panning slightly: before, no track at all (tracks=0); now one track
    /// over the clip, with few close-up passes (the crops keep it), and under --anonymize every
    /// frame is masked by that track, in adaptive and full detection.
    func testACloseUpShotIsTrackedAndMasked() throws {
        let folder = try TemporaryFolder()
        let video = folder.file("close.mp4")
        try Tools.ffmpeg(["-v", "error", "-y", "-loop", "1", "-framerate", "25", "-i", fixture, "-t", "2",
                          "-vf", "crop=113:64:55+4*sin(t*3):60,scale=640:360,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast", video])
        let plain = try Tools.run(Tools.facetrack, ["process", video, "--csv", folder.file("p.csv")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let tracked = rows(try String(contentsOfFile: folder.file("p.csv"), encoding: .utf8)).filter { !($0["track_id"] ?? "").isEmpty }
        XCTAssertGreaterThanOrEqual(Set(tracked.compactMap { $0["frame"] }).count, 45, "a tracked face on (nearly) every frame")
        XCTAssertEqual(Set(tracked.compactMap { $0["track_id"] }).count, 1)
        let passes = try XCTUnwrap(plain.stderr.range(of: #"(\d+) close-up passes"#, options: .regularExpression).map {
            Int(plain.stderr[$0].split(separator: " ")[0]) }, plain.stderr)
        XCTAssertLessThanOrEqual(passes ?? 99, 12, "only until the track's crops take over: \(plain.stderr)")
        for mode in ["adaptive", "full"] {
            let csv = folder.file("a-\(mode).csv")
            let run = try Tools.run(Tools.facetrack, ["process", video, "--detection", mode, "--anonymize", "blur", "-o",
                                                      folder.file("a-\(mode).mp4"), "--csv", csv, "--quiet"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let masked = rows(try String(contentsOfFile: csv, encoding: .utf8)).filter { !($0["track_id"] ?? "").isEmpty }
            XCTAssertEqual(Set(masked.compactMap { Int($0["frame"] ?? "") }), Set(0..<50), "\(mode): every frame masked by the track")
            // Each mask covers the middle of the picture, where the face is.
            for row in masked {
                let x = Double(row["mask_x"] ?? "") ?? 1e9, w = Double(row["mask_width"] ?? "") ?? 0
                let y = Double(row["mask_y"] ?? "") ?? 1e9, h = Double(row["mask_height"] ?? "") ?? 0
                XCTAssertTrue(x < 320 && x + w > 320 && y < 180 && y + h > 180, "\(mode): \(row)")
            }
        }
    }
}
