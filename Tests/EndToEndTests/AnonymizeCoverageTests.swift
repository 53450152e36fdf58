import Foundation
import TestSupport
import XCTest

/// `--anonymize` masks every face from its first detection and never lets a mask blink off; the
/// tracks CSV lists every mask, so `eval` measures what was hidden.
final class AnonymizeCoverageTests: XCTestCase {
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    private func rows(_ csv: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines[0]
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// With the detector on every third frame, a face is tentative on the frames between its
    /// first detections: they were left unmasked (b390fb9: frames 1, 2, 4, 5 of zoom.mp4). Now
    /// every frame of the face is masked and listed, and eval finds no frame exposing it.
    func testTentativeFaceIsMaskedBetweenDetections() throws {
        let folder = try TemporaryFolder()
        let csv = folder.file("z.csv")
        let run = try Tools.run(Tools.facetrack, ["process", samples + "/zoom.mp4", "--detect-every", "3", "--anonymize", "blur",
                                                  "-o", folder.file("z.mp4"), "--csv", csv, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let frames = Set(try rows(csv).compactMap { Int($0["frame"] ?? "") })
        XCTAssertEqual(frames, Set(0..<75), "a mask on every frame")
        let eval = try Tools.run(Tools.facetrack, ["eval", "--truth", samples + "/zoom.truth.csv", "--pred", csv, "--json"])
        let metrics = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(eval.stdout.utf8)) as? [String: Any], eval.stderr)
        XCTAssertEqual(metrics["exposing_frames"] as? Int, 0)
        XCTAssertEqual(metrics["mask_coverage"] as? Double, 1)
    }

    /// A face not yet confirmed (--min-hits 30: 90 frames at --detect-every 3, beyond the 75 of the clip) is masked from its first detected
    /// frame and listed with an empty track_id: `tentative` where detected, `predicted` between.
    /// Without --anonymize nothing of it is written, as before.
    func testTentativeFaceIsListedFromItsFirstFrame() throws {
        let folder = try TemporaryFolder()
        let csv = folder.file("t.csv"), plain = folder.file("p.csv")
        let common = [samples + "/zoom.mp4", "--detect-every", "3", "--min-hits", "30", "--quiet"]
        let run = try Tools.run(Tools.facetrack, ["process"] + common + ["--anonymize", "blur", "-o", folder.file("t.mp4"), "--csv", csv])
        XCTAssertEqual(run.status, 0, run.stderr)
        let listed = try rows(csv)
        XCTAssertEqual(listed.first?["frame"], "0")
        XCTAssertEqual(listed.first?["track_id"], "")
        XCTAssertEqual(listed.first?["source"], "tentative")
        XCTAssertEqual(listed.first { $0["frame"] == "1" }?["source"], "predicted")
        XCTAssertEqual(listed.last.map { Array($0.keys).count }, 25, "the mask region's 4 columns at the end")
        // Every row gives its mask's region; a held mask's grows with the frames since the face was seen.
        var growth: [Bool: [Double]] = [:]
        for row in listed {
            let box = try XCTUnwrap(Double(row["width"] ?? "")), mask = try XCTUnwrap(Double(row["mask_width"] ?? ""), "\(row)")
            growth[row["source"] == "predicted", default: []].append(mask / box)
        }
        let mean = { (ratios: [Double]) in ratios.reduce(0, +) / Double(max(1, ratios.count)) }
        XCTAssertGreaterThan(mean(growth[true] ?? []), mean(growth[false] ?? []) + 0.02)
        // render reads the CSV it wrote, mask columns included.
        let render = try Tools.run(Tools.facetrack, ["render", samples + "/zoom.mp4", "--tracks", csv, "--anonymize", "blur",
                                                     "-o", folder.file("r.mp4"), "--quiet"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let quiet = try Tools.run(Tools.facetrack, ["process"] + common + ["--csv", plain])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertFalse(try rows(plain).contains { $0["frame"] == "0" && $0["track_id"] == "" })
    }
}

/// `--mask-threshold`: masks err toward covering. Faces masked only because of it are listed as
/// tentative rows; it may not exceed the reporting threshold.
final class MaskThresholdTests: XCTestCase {
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    func testLowMaskThresholdMasksAndListsWeakDetections() throws {
        let folder = try TemporaryFolder()
        func rows(_ options: [String]) throws -> [String] {
            let csv = folder.file("t.csv")
            let run = try Tools.run(Tools.facetrack, ["process", samples + "/no-face.mp4", "--csv", csv, "--quiet"] + options)
            XCTAssertEqual(run.status, 0, run.stderr)
            return try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)
        }
        // no-face.mp4: nothing at the default (half of --threshold 0.2), weak patterns at 0.05.
        XCTAssertEqual(try rows(["--anonymize", "blur"]), [])
        let weak = try rows(["--anonymize", "blur", "--mask-threshold", "0.05"])
        XCTAssertFalse(weak.isEmpty)
        for row in weak {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            XCTAssertEqual(fields[2], "", row)
            XCTAssertEqual(fields[19], "tentative", row)
            XCTAssertLessThan(Double(fields[7]) ?? 1, 0.1, row)
        }
        XCTAssertEqual(try rows(["--mask-threshold", "0.05"]), [], "no masks, no mask rows")
        let bad = try Tools.run(Tools.facetrack, ["process", samples + "/no-face.mp4", "--csv", folder.file("b.csv"),
                                                  "--mask-threshold", "0.5", "--anonymize", "blur"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--mask-threshold"), bad.stderr)
        XCTAssertTrue(bad.stderr.hasPrefix("facetrack: error: invalid mask threshold (--mask-threshold): expected at most "
                                           + "the reporting threshold (--threshold 0.2)\n"), bad.stderr)
    }
}

/// Fast mode is honest: `--anonymize` with `--accuracy low` says, in one line, that it misses small faces.
final class FastModeWarningTests: XCTestCase {
    func testAnonymizeWithAccuracyLowWarnsOnce() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("p.mp4")
        try Clips.pattern(clip, seconds: 0.2)
        func warnings(_ options: [String]) throws -> [String] {
            let run = try Tools.run(Tools.facetrack, ["process", clip, "--csv", folder.file("t.csv"), "--quiet"] + options)
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stderr.split(separator: "\n").map(String.init).filter { $0.contains("misses small faces") }
        }
        let fast = try warnings(["--accuracy", "low", "--anonymize", "blur", "-o", folder.file("a.mp4")])
        XCTAssertEqual(fast, ["facetrack: warning: fast mode (--accuracy low) misses small faces and --anonymize leaves them "
                              + "unmasked: it masked 48 % of the reference clips' faces, the default mode 100 % (README, Anonymisation)"])
        XCTAssertEqual(try warnings(["--anonymize", "blur", "-o", folder.file("b.mp4")]), [])
        XCTAssertEqual(try warnings(["--accuracy", "low"]), [])
    }
}
