import Foundation
import TestSupport
import XCTest

/// `facetrack eval` and `facetrack check` run as a user runs them, on a short cut of a reference clip.
final class CheckCommandTests: XCTestCase {
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    /// The first `frames` frames of samples/crossing.mp4 and their truth rows, with track 2 moved
    /// right by `shift` pixels.
    private func cut(into folder: TemporaryFolder, frames: Int = 2, shift: Double = 0, truthName: String) throws {
        let clip = folder.file("crossing.mp4")
        if !FileManager.default.fileExists(atPath: clip) {
            try Tools.ffmpeg(["-i", samples.appendingPathComponent("crossing.mp4").path, "-frames:v", String(frames),
                              "-c:v", "libx264", "-preset", "ultrafast", "-crf", "18", clip])
        }
        let lines = try String(contentsOf: samples.appendingPathComponent("crossing.truth.csv"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        var out = [lines[0]]
        for line in lines.dropFirst() {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let frame = Int(fields[0]), frame < frames else { continue }
            if fields[2] == "2", let x = Double(fields[3]), let eye = Double(fields[8]), let eye2 = Double(fields[10]) {
                fields[3] = String(format: "%.2f", x + shift)
                fields[8] = String(format: "%.2f", eye + shift)
                fields[10] = String(format: "%.2f", eye2 + shift)
            }
            out.append(fields.joined(separator: ","))
        }
        try (out.joined(separator: "\n") + "\n").write(toFile: folder.file(truthName), atomically: false, encoding: .utf8)
    }

    private func manifest(_ folder: TemporaryFolder, truths: [(name: String, truth: String)], clip: String = "crossing.mp4") throws -> String {
        let path = folder.file("manifest.json")
        let entries = truths.map { entry in
            """
            {"name": "\(entry.name)", "clip": "\(clip)", "truth": "\(entry.truth)",
             "options": ["--detector", "blazeface", "--model", "full"],
             "thresholds": {"recall": 0.9, "precision": 0.9, "false_positives": 1}}
            """
        }
        try "{\"clips\": [\(entries.joined(separator: ",\n"))]}".write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// One run with two entries on the same clip (a debug build detects slowly): the true truth
    /// passes, the truth with one face moved 50 px fails, and the exit status is 1.
    func testCheckPassesOnTruthAndFailsWhenOneFaceMoves50Pixels() throws {
        let folder = try TemporaryFolder()
        try cut(into: folder, truthName: "good.csv")
        try cut(into: folder, shift: 50, truthName: "moved.csv")
        let junit = folder.file("report.xml")
        let path = try manifest(folder, truths: [("good", "good.csv"), ("moved", "moved.csv")])
        let result = try Tools.run(Tools.facetrack, ["check", path, "--junit", junit, "--update-golden"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, result.stdout)
        XCTAssertTrue(lines.first?.hasPrefix("PASS good: precision 1.0000, recall 1.0000") == true, result.stdout)
        XCTAssertTrue(lines.dropFirst().first?.hasPrefix("FAIL moved: false_positives 2 > 1; precision 0.5000 < 0.9000; recall 0.5000 < 0.9000") == true,
                      result.stdout)
        XCTAssertEqual(lines.last, "check: 2 clips, 1 passed, 1 failed")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains("tests=\"2\" failures=\"1\" errors=\"0\""), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"facetrack check\" name=\"moved\"") && xml.contains("<failure message=\"false_positives 2 &gt; 1; precision"), xml)
        // Anonymisation coverage in the line and the JUnit output: the moved face lies outside every mask.
        XCTAssertTrue(lines.dropFirst().first?.contains(", mask_coverage 0.5000, exposing_frames ") == true, result.stdout)
        XCTAssertTrue(xml.contains(", mask_coverage 0.5000, exposing_frames "), xml)
        XCTAssertEqual(try String(contentsOfFile: folder.file("golden/good.csv"), encoding: .utf8),
                       try String(contentsOfFile: folder.file("golden/moved.csv"), encoding: .utf8), "--update-golden stores each run")
    }

    func testCheckRejectsManifestWithMissingClip() throws {
        let folder = try TemporaryFolder()
        try "frame,track_id,x,y,width,height,confidence\n0,,,,,,\n".write(toFile: folder.file("t.csv"), atomically: false, encoding: .utf8)
        let result = try Tools.run(Tools.facetrack, ["check", try manifest(folder, truths: [("c", "t.csv")], clip: "missing.mp4")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("manifest.json:1: clip 1: clip file") && result.stderr.contains("missing.mp4 does not exist"),
                      result.stderr)
    }

    /// A clip that is not a video fails its case (an error in the JUnit report); the other cases still run.
    func testUnreadableClipFailsItsCase() throws {
        let folder = try TemporaryFolder()
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: folder.file("crossing.mp4")))
        try "frame,track_id,x,y,width,height,confidence\n0,,,,,,\n".write(toFile: folder.file("t.csv"), atomically: false, encoding: .utf8)
        let junit = folder.file("report.xml")
        let result = try Tools.run(Tools.facetrack, ["check", try manifest(folder, truths: [("a", "t.csv"), ("b", "t.csv")]), "--junit", junit])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("FAIL a: ") && result.stdout.contains("\nFAIL b: "), result.stdout)
        XCTAssertTrue(result.stdout.contains("check: 2 clips, 0 passed, 2 failed"), result.stdout)
        XCTAssertTrue(try String(contentsOfFile: junit, encoding: .utf8).contains("errors=\"2\""))
    }

    func testCheckRejectsMalformedManifest() throws {
        let folder = try TemporaryFolder()
        try "{\"clips\": [\n oops\n]}".write(toFile: folder.file("bad.json"), atomically: false, encoding: .utf8)
        let result = try Tools.run(Tools.facetrack, ["check", folder.file("bad.json")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("bad.json:2: malformed JSON"), result.stderr)
    }

    func testEvalPrintsTableAndJSONAndNamesBadLines() throws {
        let folder = try TemporaryFolder()
        let truth = samples.appendingPathComponent("zoom.truth.csv").path
        let table = try Tools.run(Tools.facetrack, ["eval", "--truth", truth, "--pred", truth])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("recall                 1.0000"), table.stdout)
        let json = try Tools.run(Tools.facetrack, ["eval", "--truth", truth, "--pred", truth, "--json", "--iou", "0.7"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["idf1"] as? Double, 1)
        XCTAssertEqual(object?["iou_threshold"] as? Double, 0.7)
        // The truth as its own masks hides every face; the mask reaches past each box (scale 1.3).
        XCTAssertEqual(object?["mask_coverage"] as? Double, 1)
        XCTAssertEqual(object?["exposing_frames"] as? Int, 0)
        XCTAssertGreaterThan(object?["false_mask_share"] as? Double ?? 0, 0.2)
        XCTAssertTrue(table.stdout.contains("mask_coverage          1.0000"), table.stdout)
        let tight = try Tools.run(Tools.facetrack, ["eval", "--truth", truth, "--pred", truth, "--json", "--mask-scale", "0.5"])
        let tightObject = try JSONSerialization.jsonObject(with: Data(tight.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(tightObject?["mask_coverage"] as? Double, 0, tight.stdout + tight.stderr)

        try "frame,track_id,x,y,width,height,confidence\n0,1,5,5,10,10,0.9\n3,1,5,5,-10,10,0.9\n"
            .write(toFile: folder.file("p.csv"), atomically: false, encoding: .utf8)
        let bad = try Tools.run(Tools.facetrack, ["eval", "--truth", truth, "--pred", folder.file("p.csv")])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("p.csv:3:5: width '-10' is out of range (0 to 1e6 pixels)"), bad.stderr)
        let usage = try Tools.run(Tools.facetrack, ["eval", "--truth", truth])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("eval needs --pred FILE"), usage.stderr)
    }

    /// `check --diff DIR`: a failing clip leaves its visual diff, tracks and report page; a passing one nothing.
    func testDiffFolderHoldsTheFailingClipsDiffVideoTracksAndReport() throws {
        let folder = try TemporaryFolder()
        try cut(into: folder, truthName: "good.csv")
        try cut(into: folder, shift: 50, truthName: "moved.csv")
        let path = try manifest(folder, truths: [("good", "good.csv"), ("moved", "moved.csv")])
        let diff = folder.file("artifacts")
        let result = try Tools.run(Tools.facetrack, ["check", path, "--diff", diff])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("diff in \(diff)/moved.diff.mp4, \(diff)/moved.html"), result.stdout)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: diff))?.sorted(),
                       ["moved.csv", "moved.diff.mp4", "moved.html"])
        XCTAssertEqual(try Tools.videoFrameTimes(diff + "/moved.diff.mp4").count, 2)
        let page = try String(contentsOfFile: diff + "/moved.html", encoding: .utf8)
        XCTAssertTrue(page.contains("<html"), "a report page")
    }
}
