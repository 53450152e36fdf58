import Foundation
import TestSupport
import XCTest

/// `process --start/--end` (a span: frames numbered and timed as in the whole video, the output
/// video starting at 0 with its audio) and `--json` (JSON Lines with the CSV's fields).
final class SpanAndJSONTests: XCTestCase {
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    private func rows(_ csv: String) throws -> [[String]] {
        try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    func testSpanOfDemoWritesTheSpansFramesAndJSONLinesMatchTheCSV() throws {
        let folder = try TemporaryFolder()
        let out = folder.file("part.mp4"), csv = folder.file("part.csv"), json = folder.file("part.jsonl")
        let summary = folder.file("tracks.json")
        let run = try Tools.run(Tools.facetrack, ["process", samples + "/demo.mp4", "-o", out, "--csv", csv, "--json", json,
                                                  "--tracks-summary", summary, "--detector", "blazeface",
                                                  "--start", "1", "--end", "0:02", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        // The CSV keeps the whole video's frame numbers and times.
        let table = try rows(csv)
        let header = try XCTUnwrap(table.first)
        let faces = Array(table.dropFirst())
        XCTAssertFalse(faces.isEmpty, "demo.mp4 has faces between 1 s and 2 s")
        for row in faces {
            let frame = try XCTUnwrap(Int(row[0])), time = try XCTUnwrap(Double(row[1]))
            XCTAssertTrue((25..<50).contains(frame), "frame \(frame)")
            XCTAssertEqual(time, Double(frame) / 25, accuracy: 1e-6)
        }
        // One JSON object per CSV row, same keys in the same order, same values.
        let lines = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, faces.count)
        for (line, row) in zip(lines, faces) {
            XCTAssertTrue(line.hasPrefix("{\"frame\":\(row[0]),\"time\":\(row[1]),"), String(line))
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            XCTAssertEqual(Set(object.keys), Set(header))
            for (name, field) in zip(header, row) {
                switch object[name] {
                case is NSNull: XCTAssertEqual(field, "", name)
                case let text as String: XCTAssertEqual(text, field, name)
                case let number as NSNumber:
                    if name == "has_smile" || name.hasSuffix("_closed") {
                        XCTAssertEqual(number.boolValue ? "1" : "0", field, name)
                    } else {
                        XCTAssertEqual(number.doubleValue, try XCTUnwrap(Double(field)), accuracy: 1e-9, name)
                    }
                default: XCTFail("\(name): \(String(describing: object[name]))")
                }
            }
        }
        // The video holds the span only, from 0, with its audio.
        let times = try Tools.videoFrameTimes(out)
        XCTAssertEqual(times.count, 25)
        XCTAssertEqual(times.first ?? -1, 0, accuracy: 0.001)
        XCTAssertEqual(times.last ?? -1, 0.96, accuracy: 0.001)
        let audio = try Tools.ffprobe(["-select_streams", "a:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", out])
            .split(separator: "\n").compactMap { Double($0) }
        XCTAssertFalse(audio.isEmpty, "audio kept")
        XCTAssertTrue(audio.allSatisfy { $0 >= -0.05 && $0 < 1.0 }, "audio of the span only: \(audio.prefix(3))... \(audio.suffix(3))")
        // The tracks summary: first and last time within the span, and a person key on every track.
        let tracks = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        let list = try XCTUnwrap(tracks["tracks"] as? [[String: Any]])
        XCTAssertFalse(list.isEmpty)
        for track in list {
            let first = try XCTUnwrap(track["first_time"] as? NSNumber).doubleValue
            let last = try XCTUnwrap(track["last_time"] as? NSNumber).doubleValue
            XCTAssertTrue(first >= 1 && last < 2 && first <= last, "\(track)")
            XCTAssertTrue(track.keys.contains("person"), "\(track)")
        }
    }

    func testBadTimesAndEmptySpansAreOneLineErrors() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 1)
        let backwards = try Tools.run(Tools.facetrack, ["process", clip, "--csv", folder.file("a.csv"), "--detector", "none",
                                                        "--start", "2", "--end", "1"])
        XCTAssertEqual(backwards.status, 2)
        XCTAssertTrue(backwards.stderr.contains("--end (1.0 s) must come after --start (2.0 s)"), backwards.stderr)
        let word = try Tools.run(Tools.facetrack, ["process", clip, "--csv", folder.file("a.csv"), "--start", "soon"])
        XCTAssertEqual(word.status, 2)
        XCTAssertTrue(word.stderr.contains("--start"), word.stderr)
        let late = try Tools.run(Tools.facetrack, ["process", clip, "-o", folder.file("o.mp4"), "--detector", "none", "--start", "5"])
        XCTAssertNotEqual(late.status, 0)
        XCTAssertEqual(late.stderr.split(separator: "\n").count, 1, late.stderr)
        XCTAssertTrue(late.stderr.contains("no frame between 0:00:05.000 to the end"), late.stderr)
        XCTAssertEqual(folder.contents(), ["clip.mp4"], "nothing written")
    }
}
