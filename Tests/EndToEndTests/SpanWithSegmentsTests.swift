import Foundation
import TestSupport
import XCTest

/// `--start`/`--end` and `--json` do not go with a split plan's segments (`--segment`, `--jobs`):
/// a plan cuts the whole video, and stitch joins CSV. Each combination is a usage error (one line,
/// and the pointer to --help) that writes nothing.
final class SpanWithSegmentsTests: XCTestCase {
    func testStartEndAndJSONAreRefusedWithSegmentsAndJobs() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 2)
        let plan = try Tools.run(Tools.facetrack, ["split-plan", clip, "--segments", "2", "-o", folder.file("clip.plan.jsonl")])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let cases: [([String], String)] = [
            (["--segment", "0", "--plan", folder.file("clip.plan.jsonl"), "--start", "1"], "--start/--end cannot be combined"),
            (["--jobs", "2", "--end", "0:01"], "--start/--end cannot be combined"),
            (["--segment", "1", "--plan", folder.file("clip.plan.jsonl"), "--json", folder.file("a.jsonl")], "--json is not written"),
            (["--jobs", "2", "--json", folder.file("a.jsonl")], "--json is not written"),
        ]
        for (options, message) in cases {
            let run = try Tools.run(Tools.facetrack, ["process", clip, "--csv", folder.file("a.csv"), "--detector", "none"] + options)
            XCTAssertEqual(run.status, 2, "\(options): \(run.stderr)")
            // The error's line, then the usual pointer to --help.
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 2, run.stderr)
            XCTAssertTrue(lines.first?.contains(message) ?? false, run.stderr)
            XCTAssertEqual(lines.last, "facetrack: see 'facetrack process --help'")
        }
        XCTAssertEqual(folder.contents(), ["clip.mp4", "clip.plan.jsonl"], "nothing written")
    }
}
