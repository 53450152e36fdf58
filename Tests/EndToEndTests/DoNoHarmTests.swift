import Foundation
import TestSupport
import XCTest

/// Re-identification must never make identities worse than the tracker alone: an edit of the
/// committed reference clips (two people: Grace Hopper and the astronaut) joined by a hard cut, a
/// dissolve and a fade through black, with the truth joined from theirs. The default's identity
/// F1 must be at least `--no-reid`'s and at least the measured figure less a margin.
final class DoNoHarmTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    /// A clip of the edit: its file, its truth IDs mapped to people (Hopper 1, the astronaut 2), and how it is joined to
    /// the one before ("cut", or an xfade transition of `transitionFrames`).
    private struct Part {
        var clip: String
        var people: [String: String]
        var frames: Int
        var join: String
    }

    private static let transitionFrames = 10
    private let parts = [
        Part(clip: "zoom", people: ["1": "1"], frames: 75, join: "cut"),
        Part(clip: "exit-return", people: ["1": "2"], frames: 100, join: "cut"),
        Part(clip: "cut-aba", people: ["1": "1", "2": "2"], frames: 114, join: "fade"),
        Part(clip: "crossing", people: ["1": "1", "2": "2"], frames: 100, join: "fadeblack"),
    ]

    /// Builds the edit and its truth in `folder`; returns their paths.
    private func makeEdit(in folder: TemporaryFolder) throws -> (clip: String, truth: String) {
        var inputs: [String] = [], filter = "", last = "[s0]", offsets: [Int] = [], length = 0
        for (i, part) in parts.enumerated() {
            inputs += ["-i", "\(Self.samples)/\(part.clip).mp4"]
            // One time base for every part, as xfade wants.
            filter += "[\(i):v]fps=25,settb=AVTB,setpts=PTS-STARTPTS[s\(i)];"
            guard i > 0 else { offsets.append(0); length = part.frames; continue }
            let out = "[v\(i)]"
            if part.join == "cut" {
                filter += "\(last)[s\(i)]concat=n=2:v=1:a=0\(out);"
                offsets.append(length)
                length += part.frames
            } else {
                let offset = length - Self.transitionFrames
                filter += "\(last)[s\(i)]xfade=transition=\(part.join):duration=\(Double(Self.transitionFrames) / 25):"
                    + "offset=\(Double(offset) / 25)\(out);"
                offsets.append(offset)
                length = offset + part.frames
            }
            last = out
        }
        let clip = folder.file("edit.mp4")
        try Tools.ffmpeg(inputs + ["-filter_complex", String(filter.dropLast()), "-map", last, "-r", "25", "-frames:v", String(length), "-c:v", "libx264",
                                   "-crf", "20", "-pix_fmt", "yuv420p", clip])
        // The truth: each clip's rows moved to their place; rows on a transition's frames, where
        // two pictures mix, are `ignore` (neither a miss nor a false face).
        var transitions: [ClosedRange<Int>] = []
        for (i, part) in parts.enumerated() where i > 0 && part.join != "cut" {
            transitions.append(offsets[i]...(offsets[i] + Self.transitionFrames - 1))
        }
        var rows: [Int: [String]] = [:]
        var header = ""
        for (i, part) in parts.enumerated() {
            let lines = try String(contentsOfFile: "\(Self.samples)/\(part.clip).truth.csv", encoding: .utf8)
                .split(separator: "\n").map(String.init)
            header = lines[0]
            for line in lines.dropFirst() {
                var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard let frame = Int(fields[0]) else { continue }
                let out = offsets[i] + frame
                fields[0] = String(out)
                fields[1] = String(format: "%.6f", Double(out) / 25)
                if !fields[2].isEmpty {
                    fields[2] = part.people[fields[2]] ?? fields[2]
                    if transitions.contains(where: { $0.contains(out) }) {
                        // Both parts' faces are on these frames: numbered apart, so no ID is there twice.
                        fields[2] = String((Int(fields[2]) ?? 0) + 10 * (i + 1))
                        fields[fields.count - 1] = "ignore"
                    }
                } else if rows[out] != nil {
                    continue
                }
                rows[out, default: []].removeAll { $0.split(separator: ",", omittingEmptySubsequences: false)[2].isEmpty }
                rows[out, default: []].append(fields.joined(separator: ","))
            }
        }
        let truth = folder.file("edit.truth.csv")
        let body = (0..<length).flatMap { rows[$0] ?? ["\($0),\(String(format: "%.6f", Double($0) / 25))" + String(repeating: ",", count: 18)] }
        try ([header] + body).joined(separator: "\n").appending("\n").write(toFile: truth, atomically: true, encoding: .utf8)
        return (clip, truth)
    }

    private func idf1(_ clip: String, truth: String, _ options: [String], in folder: TemporaryFolder) throws -> Double {
        let csv = folder.file("tracks\(options.count).csv")
        let run = try Tools.run(Tools.facetrack, ["process", clip, "--csv", csv, "--quiet"] + options)
        XCTAssertEqual(run.status, 0, run.stderr)
        let eval = try Tools.run(Tools.facetrack, ["eval", "--truth", truth, "--pred", csv, "--json"])
        XCTAssertEqual(eval.status, 0, eval.stderr)
        let metrics = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(eval.stdout.utf8)) as? [String: Any])
        return try XCTUnwrap(metrics["idf1"] as? Double)
    }

    func testReidentificationIsNeverWorseThanTheTrackerAlone() throws {
        let folder = try TemporaryFolder()
        let (clip, truth) = try makeEdit(in: folder)
        let withReid = try idf1(clip, truth: truth, [], in: folder)
        let without = try idf1(clip, truth: truth, ["--no-reid"], in: folder)
        XCTAssertGreaterThanOrEqual(withReid, without, "re-identification made identities worse")
        XCTAssertGreaterThanOrEqual(withReid, 0.9, "identity F1 with re-identification")
        print("do no harm: identity F1 \(withReid) with re-identification, \(without) without")
    }
}
