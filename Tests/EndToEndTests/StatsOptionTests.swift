import Foundation
import TestSupport
import XCTest

/// `--stats`: CPU time per stage, fps and peak memory after `process`, and in batch's results.
final class StatsOptionTests: XCTestCase {
    private let stages = ["demux+decode", "convert", "detect", "attributes", "track+write", "render", "encode", "mux",
                          "codec threads"]

    func testProcessPrintsEveryStageWithSharesThatAddUp() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4"), out = folder.file("out.mp4")
        try Clips.pattern(clip, seconds: 1, rate: 25)
        let result = try Tools.run(Tools.facetrack, ["process", clip, "-o", out, "--accuracy", "low", "--stats", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(lines.first { $0.contains("stats: 25 frames in") }, result.stderr)
        XCTAssertTrue(header.contains("fps") && header.contains("peak memory"), header)
        var shares = 0.0
        for stage in stages {
            let line = try XCTUnwrap(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(stage + " ") }, "\(stage) in\n\(result.stderr)")
            let share = try XCTUnwrap(Double(line.split(separator: " ").last!.dropLast()), line)
            shares += share
        }
        XCTAssertEqual(shares, 100, accuracy: 0.6, "the shares add up to the process's CPU time")
        let encodeLine = lines.first { $0.contains("  encode ") }!
        XCTAssertGreaterThan(Double(encodeLine.split(separator: " ")[1])!, 0, "an encoding run spends time encoding")
    }

    /// The detection budget: under detect, each kind of pass with the counts the summary line gives
    /// and CPU times that add up to at most detect's.
    func testProcessPrintsTheDetectorPassesByKind() throws {
        let folder = try TemporaryFolder()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let clip = root.appendingPathComponent("samples/edge-enter.mp4").path
        let result = try Tools.run(Tools.facetrack, ["process", clip, "--csv", folder.file("t.csv"), "--stats"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let summary = try XCTUnwrap(lines.first { $0.contains("detector passes:") }, result.stderr)
        func counted(_ kind: String) -> Int? {
            let words = summary.split(separator: ",").first { $0.hasSuffix(" " + kind) }?.split(separator: " ")
            return words.flatMap { Int($0[$0.count - 2]) }
        }
        let lookBack = summary.split(separator: ",").first { $0.hasSuffix(" look-back crops") }.flatMap { Int($0.split(separator: " ")[0]) } ?? 0
        let detect = try XCTUnwrap(lines.first { $0.hasPrefix("  detect ") }, result.stderr)
        let detectSeconds = try XCTUnwrap(Double(detect.split(separator: " ")[1]), detect)
        var passSeconds = 0.0
        for (kind, name) in [("whole-frame", "whole-frame"), ("crops", "crops"), ("tiles", "tiles"), ("look-back crops", "look-back")] {
            let count = kind == "look-back crops" ? lookBack : try XCTUnwrap(counted(kind), summary)
            let line = lines.first { $0.hasPrefix("    " + name + " ") }
            guard count > 0 else {
                XCTAssertNil(line, "a kind that did not run is not listed")
                continue
            }
            let passLine = try XCTUnwrap(line, "\(name) in\n\(result.stderr)")
            XCTAssertTrue(passLine.contains(" \(count) passes"), "\(passLine) against \(summary)")
            passSeconds += try XCTUnwrap(Double(passLine.split(separator: " ")[1]), passLine)
        }
        XCTAssertGreaterThan(passSeconds, 0)
        XCTAssertLessThanOrEqual(passSeconds, detectSeconds + 0.011, "the passes are part of detect")
        // edge-enter's small faces entering at the edges take every kind: tiles find them, crops
        // follow them, the look-back finds their first frames.
        XCTAssertGreaterThan(counted("crops") ?? 0, 0)
        XCTAssertGreaterThan(counted("tiles") ?? 0, 0)
        XCTAssertGreaterThan(lookBack, 0)
    }

    /// The memory breakdown after the stages: CenterFace's arenas and weights counted, frames in
    /// flight x the 320x240 YUV 4:2:0 frame (115200 bytes), and the parts below the process's peak.
    func testProcessPrintsWhereTheMemoryGoes() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4"), out = folder.file("out.mp4")
        try Clips.pattern(clip, seconds: 1, rate: 25)
        let result = try Tools.run(Tools.facetrack, ["process", clip, "-o", out, "--stats", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func mib(_ name: String) throws -> Double {
            let line = try XCTUnwrap(lines.first { $0.hasPrefix(name + " ") }, "\(name) in\n\(result.stderr)")
            let fields = line.dropFirst(name.count).split(separator: " ")
            return try XCTUnwrap(Double(fields[0]), line)
        }
        let peak = try XCTUnwrap(Double(try XCTUnwrap(lines.first { $0.hasPrefix("memory: peak ") }, result.stderr)
            .split(separator: " ")[2]))
        let frameLine = try XCTUnwrap(lines.first { $0.hasPrefix("frames in flight ") })
        let held = try XCTUnwrap(Int(frameLine.split(separator: "MiB")[1].split(separator: " ")[0]), frameLine)
        XCTAssertEqual(try mib("frames in flight"), Double(held * 115_200) / 1_048_576, accuracy: 0.05, frameLine)
        XCTAssertGreaterThan(try mib("network arenas"), 1, "CenterFace's activations")
        XCTAssertGreaterThan(try mib("network weights, tables"), 5, "CenterFace's 7 MB of weights, packed once")
        let parts = try ["frames in flight", "BGRA pictures", "network arenas", "network weights, tables"].map(mib)
        XCTAssertLessThan(parts.reduce(0, +), peak)
        // The peak line is in whole MiB (up to 0.5 off), the five parts in tenths (0.05 each).
        XCTAssertEqual(try mib("codecs, libraries, rest") + parts.reduce(0, +), peak, accuracy: 0.5 + 5 * 0.05)
    }

    /// The look-back holds a second where tiles run (a small face can take that long to be found by
    /// them) and with --anonymize, half a second where no tiles run (a longer window there only moved
    /// identity decisions): at 25 fps 25 or 13 frames, which the limit of frames in flight shows.
    func testTheLookBackHoldsASecondWhereTilesRunAndHalfASecondWhereNoneDo() throws {
        let folder = try TemporaryFolder()
        func limit(_ size: String, _ extra: [String] = []) throws -> Int {
            let clip = folder.file("clip-\(size).mp4")
            try Clips.pattern(clip, seconds: 0.2, size: size, rate: 25)
            let result = try Tools.run(Tools.facetrack, ["process", clip, "--csv", folder.file("t.csv"), "--stats", "--quiet"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            let line = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.contains("look-ahead window ") }, result.stderr)
            return try XCTUnwrap(Int(line.components(separatedBy: "(limit ")[1].dropLast()), String(line))
        }
        let untiled = try limit("640x360")
        XCTAssertEqual(try limit("1280x720") - untiled, 25 - 13, "720p at 640: tiles at full resolution, a second")
        XCTAssertEqual(try limit("640x360", ["--anonymize", "blur"]) - untiled, 25 - 13, "--anonymize: a second")
    }

    func testBatchResultsCarryStatsPerFile() throws {
        let folder = try TemporaryFolder()
        let inputs = folder.file("in")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        try Clips.pattern(inputs + "/a.mp4", seconds: 1, rate: 10)
        let results = folder.file("results.jsonl")
        let run = try Tools.run(Tools.facetrack, ["batch", inputs, "--out", folder.file("out"), "--results", results,
                                                  "--detector", "none", "--stats", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("a.mp4: stats: 10 frames"), run.stderr)
        let line = try XCTUnwrap(try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").first)
        let record = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let stats = try XCTUnwrap(record["stats"] as? [String: Any], line.description)
        let names = (stats["stages"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        XCTAssertEqual(names, stages)
        XCTAssertGreaterThan(stats["peakMemoryBytes"] as? Int ?? 0, 1_000_000)
    }
}
