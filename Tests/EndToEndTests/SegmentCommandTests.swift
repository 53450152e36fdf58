import Foundation
import TestSupport
import XCTest

/// One video over several processes: `split-plan`, `process --segment`, `stitch` and
/// `process --jobs` give what one run gives (docs/batch.md).
final class SegmentCommandTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    /// 17.6 s at 25 fps with audio: four sample clips one after the other, so that faces enter,
    /// leave, cross and come back around the seams of a three-segment plan (key frame every second,
    /// plus x264's own at the scene changes).
    private static func longClip(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("long.mp4")
        let clips = ["exit-return-long", "crossing", "cut-aba", "zoom"]
        let inputs = clips.flatMap { ["-i", samples + "/\($0).mp4"] }
        let scaled = clips.indices.map { "[\($0):v]fps=25,setsar=1[v\($0)]" }.joined(separator: ";")
        let concat = clips.indices.map { "[v\($0)]" }.joined() + "concat=n=\(clips.count):v=1:a=0[v]"
        try Tools.ffmpeg(inputs + ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-filter_complex",
                                   scaled + ";" + concat, "-map", "[v]", "-map", "\(clips.count):a", "-shortest",
                                   "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", path])
        return path
    }

    /// crossing.mp4 (two faces, 4 s) with a key frame every second and a tone.
    private static func crossing(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("clip.mp4")
        try Tools.ffmpeg(["-i", samples + "/crossing.mp4", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-map", "0:v",
                          "-map", "1:a", "-shortest", "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-c:a", "aac", path])
        return path
    }

    /// A fast detector on every whole frame: each frame's detections do not depend on the frames
    /// before, so segments give exactly what one run gives.
    private static let fixedPlan = ["--detector", "blazeface", "--detection", "full"]

    private func run(_ arguments: [String], in folder: TemporaryFolder, status: Int32 = 0,
                     file: StaticString = #filePath, line: UInt = #line) throws -> Tools.Result {
        let result = try Tools.run(Tools.facetrack, arguments, directory: folder.path)
        XCTAssertEqual(result.status, status, "\(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    /// `eval` of `pred` against `truth` at `iou`: (f1, idf1).
    private func agreement(truth: String, pred: String, iou: Double, in folder: TemporaryFolder) throws -> (f1: Double, idf1: Double) {
        let result = try run(["eval", "--truth", truth, "--pred", pred, "--iou", String(iou), "--json"], in: folder)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (json?["f1"] as? Double ?? -1, json?["idf1"] as? Double ?? -1)
    }

    func testStitchedSegmentsMatchOneRun() throws {
        let folder = try TemporaryFolder()
        let input = try Self.longClip(folder)
        try FileManager.default.createDirectory(atPath: folder.file("work"), withIntermediateDirectories: true)
        _ = try run(["process", input, "-o", "single.mp4", "--csv", "single.csv", "--quiet"], in: folder)

        let plan = try run(["split-plan", input, "--segments", "3", "--overlap", "2", "-o", "work/long.plan.jsonl"], in: folder)
        XCTAssertTrue(plan.stderr.contains("3 segments of 439 frames"), plan.stderr)
        for k in 0..<3 {
            _ = try run(["process", input, "--segment", String(k), "--plan", "work/long.plan.jsonl", "-o", "faces.mp4",
                         "--csv", "faces.csv", "--mot", "faces.mot.txt", "--tracks-summary", "faces.tracks.json", "--quiet"],
                        in: folder)
        }
        let stitch = try run(["stitch", "work/long.plan.jsonl", "--out", "out"], in: folder)
        XCTAssertTrue(stitch.stderr.contains("stitched 3 segments: 439 frames"), stitch.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.file("out"))),
                       ["faces.mp4", "faces.csv", "faces.mot.txt", "faces.tracks.json"])

        // The same faces per frame, boxes and identities as one run. Adaptive detection plans each
        // frame's passes from the tracks' history, which a segment starts afresh at its first key
        // frame; the plan's rhythm is keyed on the frame's number in the video and its lag fixed,
        // so within the overlap a segment's passes fall in step with one run's (docs/batch.md).
        let ids = try agreement(truth: "single.csv", pred: "out/faces.csv", iou: 0.5, in: folder)
        XCTAssertGreaterThanOrEqual(ids.f1, 0.99)
        XCTAssertGreaterThanOrEqual(ids.idf1, 0.99)
        let boxes = try agreement(truth: "single.csv", pred: "out/faces.csv", iou: 0.9, in: folder)
        XCTAssertGreaterThanOrEqual(boxes.f1, 0.99, "boxes at IoU 0.9")
        XCTAssertGreaterThanOrEqual(boxes.idf1, 0.99)
        // The joined video: every frame at its original time, the original's audio once.
        XCTAssertEqual(try Tools.videoFrameTimes(folder.file("out/faces.mp4")), try Tools.videoFrameTimes(input))
        XCTAssertEqual(try Tools.packetCount(folder.file("out/faces.mp4"), stream: "a"), try Tools.packetCount(input, stream: "a"))
        let mot = try String(contentsOfFile: folder.file("out/faces.mot.txt"), encoding: .utf8)
        let csvRows = try String(contentsOfFile: folder.file("out/faces.csv"), encoding: .utf8).split(separator: "\n").count - 1
        XCTAssertEqual(mot.split(separator: "\n").count, csvRows)
    }

    func testMissingSegmentIsNamedAndARerunDoesOnlyIt() throws {
        let folder = try TemporaryFolder()
        let input = try Self.crossing(folder)
        _ = try run(["process", input, "--csv", "one.csv", "--quiet"] + Self.fixedPlan, in: folder)
        _ = try run(["split-plan", input, "--segments", "3", "--overlap", "1", "-o", "clip.plan.jsonl", "--quiet"], in: folder)
        for k in [0, 2] {
            _ = try run(["process", input, "--segment", String(k), "--plan", "clip.plan.jsonl", "--csv", "c.csv", "--quiet"] + Self.fixedPlan, in: folder)
        }
        let missing = try run(["stitch", "clip.plan.jsonl", "--out", "out"], in: folder, status: 1)
        XCTAssertTrue(missing.stderr.contains("segment 1 of 3 has not finished"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("--array=1"), missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("out/c.csv")))
        XCTAssertEqual(try run(["stitch", "clip.plan.jsonl", "--missing"], in: folder).stdout, "1\n")

        // A segment done is not run again (its record stands); the missing one runs.
        let before = try FileManager.default.attributesOfItem(atPath: folder.file("clip.plan.part-000.json"))[.modificationDate] as? Date
        let again = try run(["process", input, "--segment", "0", "--plan", "clip.plan.jsonl", "--csv", "c.csv"] + Self.fixedPlan,
                            in: folder)
        XCTAssertTrue(again.stderr.contains("segment 0 is already done"), again.stderr)
        let after = try FileManager.default.attributesOfItem(atPath: folder.file("clip.plan.part-000.json"))[.modificationDate] as? Date
        XCTAssertEqual(before, after)
        // Other options than the segments before: refused at stitch time.
        _ = try run(["process", input, "--segment", "1", "--plan", "clip.plan.jsonl", "--csv", "c.csv", "--detect-every", "2",
                     "--quiet"] + Self.fixedPlan, in: folder)
        let mixed = try run(["stitch", "clip.plan.jsonl", "--out", "out"], in: folder, status: 1)
        XCTAssertTrue(mixed.stderr.contains("segment 1 ran with other settings than segment 0"), mixed.stderr)
        try FileManager.default.removeItem(atPath: folder.file("clip.plan.part-001.json"))
        _ = try run(["process", input, "--segment", "1", "--plan", "clip.plan.jsonl", "--csv", "c.csv", "--quiet"] + Self.fixedPlan, in: folder)
        _ = try run(["stitch", "clip.plan.jsonl", "--out", "out", "--quiet"], in: folder)
        let ids = try agreement(truth: "one.csv", pred: "out/c.csv", iou: 0.9, in: folder)
        XCTAssertEqual(ids.f1, 1)
        XCTAssertEqual(ids.idf1, 1)
        // Row for row the same, track IDs aside (a run numbers them as the tracker confirms them).
        func withoutIDs(_ path: String) throws -> [String] {
            try String(contentsOfFile: folder.file(path), encoding: .utf8).split(separator: "\n")
                .map { $0.split(separator: ",", omittingEmptySubsequences: false).enumerated().filter { $0.offset != 2 }
                    .map(\.element).joined(separator: ",") }
        }
        XCTAssertEqual(try withoutIDs("out/c.csv"), try withoutIDs("one.csv"))
    }

    /// A segment killed mid-run (SIGTERM, as scancel or a time limit sends) leaves no record, no part
    /// and no temporary file; stitch lists it, and running it again completes the plan.
    func testKilledSegmentLeavesNothingAndRunsAgain() throws {
        let folder = try TemporaryFolder()
        let input = try Self.crossing(folder)
        _ = try run(["split-plan", input, "--segments", "2", "--overlap", "1", "-o", "clip.plan.jsonl", "--quiet"], in: folder)
        let segment = ["process", input, "--segment", "1", "--plan", "clip.plan.jsonl", "--csv", "c.csv", "-o", "c.mp4", "--quiet"]
        let before = Set(folder.contents())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.facetrack)
        process.arguments = segment
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once it is writing (its temporary files are there).
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Set(folder.contents()).subtracting(before).isEmpty, Date() < deadline { usleep(20_000) }
        XCTAssertTrue(process.isRunning, "the segment ended before it could be killed")
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 143)
        XCTAssertEqual(Set(folder.contents()), before, "a killed segment leaves nothing")
        XCTAssertEqual(try run(["stitch", "clip.plan.jsonl", "--missing"], in: folder).stdout, "0-1\n")
        for k in [1, 0] {
            _ = try run(["process", input, "--segment", String(k), "--plan", "clip.plan.jsonl", "--csv", "c.csv", "-o", "c.mp4",
                         "--quiet"], in: folder)
        }
        XCTAssertEqual(try run(["stitch", "clip.plan.jsonl", "--missing"], in: folder).stdout, "\n")
        _ = try run(["stitch", "clip.plan.jsonl", "--out", "out", "--quiet"], in: folder)
        XCTAssertEqual(try Tools.videoFrameTimes(folder.file("out/c.mp4")), try Tools.videoFrameTimes(input))
    }

    func testJobsRunsSegmentsAsProcessesAndStitches() throws {
        let folder = try TemporaryFolder()
        let input = try Self.crossing(folder)
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        _ = try run(["process", input, "--csv", "one.csv", "--quiet"] + Self.fixedPlan, in: folder)
        let jobs = try run(["process", input, "--jobs", "2", "--csv", "out/two.csv", "-o", "out/two.mp4"] + Self.fixedPlan,
                           in: folder)
        XCTAssertTrue(jobs.stderr.contains("2 segments (plan out/clip.plan.jsonl); running 2 at once"), jobs.stderr)
        let same = try agreement(truth: "one.csv", pred: "out/two.csv", iou: 0.9, in: folder)
        XCTAssertEqual(same.f1, 1)
        XCTAssertEqual(same.idf1, 1)
        XCTAssertEqual(try Tools.videoFrameTimes(folder.file("out/two.mp4")), try Tools.videoFrameTimes(input))
        XCTAssertEqual(try Tools.packetCount(folder.file("out/two.mp4"), stream: "a"), try Tools.packetCount(input, stream: "a"))
        // The plan and the parts were its own: gone.
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.file("out"))), ["two.csv", "two.mp4"])

        // With --plan they stay; a segment lost (killed) and a rerun: only that one runs.
        let named = ["process", input, "--jobs", "2", "--plan", "work.plan.jsonl", "--csv", "out/three.csv"] + Self.fixedPlan
        _ = try run(named, in: folder)
        try FileManager.default.removeItem(atPath: folder.file("work.plan.part-001.json"))
        try FileManager.default.removeItem(atPath: folder.file("out/three.csv"))
        let rerun = try run(named, in: folder)
        XCTAssertTrue(rerun.stderr.contains("running 1 at once (the others are done)"), rerun.stderr)
        XCTAssertTrue(rerun.stderr.contains("segment 1 done"), rerun.stderr)
        XCTAssertFalse(rerun.stderr.contains("segment 0 done"), rerun.stderr)
        XCTAssertEqual(try String(contentsOfFile: folder.file("out/three.csv"), encoding: .utf8),
                       try String(contentsOfFile: folder.file("out/two.csv"), encoding: .utf8))
    }

    func testSplitPlanErrors() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("clip.mp4")
        try Clips.pattern(input, seconds: 1)
        XCTAssertTrue(try run(["split-plan", input], in: folder, status: 2).stderr.contains("needs --segments N or --segment-seconds S"))
        XCTAssertTrue(try run(["split-plan", input, "--segments", "2", "--segment-seconds", "3"], in: folder, status: 2).stderr
            .contains("not both"))
        XCTAssertTrue(try run(["process", input, "--segment", "0", "--csv", "x.csv"], in: folder, status: 2).stderr
            .contains("--segment needs --plan PLAN"))
        let printed = try run(["split-plan", input, "--segments", "2"], in: folder)
        XCTAssertEqual(printed.stdout.split(separator: "\n").count, 2, printed.stdout)  // 25 frames, one key frame: one segment
        XCTAssertTrue(printed.stderr.contains("1 segments (2 asked; the video has too few key frames)"), printed.stderr)
        try "not a video".write(toFile: folder.file("bad.mp4"), atomically: true, encoding: .utf8)
        let bad = try run(["split-plan", "bad.mp4", "--segments", "2"], in: folder, status: 1)
        XCTAssertTrue(bad.stderr.hasPrefix("facetrack: error: bad.mp4:"), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
    }
}
