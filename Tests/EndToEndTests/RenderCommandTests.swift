import Foundation
import TestSupport
import XCTest

/// `facetrack render` and `facetrack apply-edits` run as a user runs them: tracks written by hand
/// on a plain white clip, drawn as black fills, so every face's pixels can be checked.
final class RenderCommandTests: XCTestCase {
    static let header = "frame,time,track_id,x,y,width,height,confidence,left_eye_x,left_eye_y,right_eye_x,right_eye_y,"
        + "mouth_x,mouth_y,has_smile,left_eye_closed,right_eye_closed,roll,yaw,source"

    /// 2 s of white 320x240 at 25 fps with a tone.
    private func whiteClip(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("white.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=white:size=320x240:rate=25", "-f", "lavfi", "-i",
                          "sine=frequency=440:sample_rate=44100", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast",
                          "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path])
        return path
    }

    /// A row of our CSV: a face of track `id` at (x, y) size w x h on `frame`.
    private func row(_ frame: Int, _ id: Int?, _ x: Double, _ y: Double, _ w: Double = 40, _ h: Double = 40) -> String {
        String(format: "%d,%.6f,%@,%.2f,%.2f,%.2f,%.2f,0.9000,,,,,,,,,,,,detected", frame, Double(frame) / 25,
               id.map(String.init) ?? "", x, y, w, h)
    }

    private func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// The luma of every frame, 320x240 each.
    private func luma(_ video: String, _ folder: TemporaryFolder) throws -> [[UInt8]] {
        let raw = folder.file("frames.gray")
        try Tools.ffmpeg(["-i", video, "-f", "rawvideo", "-pix_fmt", "gray", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        try FileManager.default.removeItem(atPath: raw)
        return stride(from: 0, to: bytes.count, by: 320 * 240).map { Array(bytes[$0..<min(bytes.count, $0 + 320 * 240)]) }
    }

    private func dark(_ frames: [[UInt8]], _ frame: Int, _ x: Int, _ y: Int) -> Bool { frames[frame][y * 320 + x] < 80 }

    private func render(_ arguments: [String]) throws -> Tools.Result {
        try Tools.run(Tools.facetrack, ["render"] + arguments)
    }

    func testDrawsTheRowsFacesOnlyAndKeepsTimingAndAudio() throws {
        let folder = try TemporaryFolder()
        let clip = try whiteClip(folder), tracks = folder.file("t.csv"), out = folder.file("out.mp4")
        // Track 1 on frames 0-9 at (40,40); track 2 only on frames 0 and 20 at (200,100) and (240,100).
        var lines = [Self.header]
        for frame in 0..<10 { lines.append(row(frame, 1, 40, 40)) }
        lines += [row(0, 2, 200, 100), row(20, 2, 240, 100)]
        try write(lines.joined(separator: "\n") + "\n", tracks)
        let plain = try render([clip, "--tracks", tracks, "-o", out, "--anonymize", "fill", "--overlay", "none"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stderr.contains("50 frames, 12 faces drawn, 2 tracks"), plain.stderr)
        XCTAssertEqual(try Tools.videoFrameTimes(out), try Tools.videoFrameTimes(clip))
        XCTAssertEqual(try Tools.packetCount(out, stream: "a:0"), try Tools.packetCount(clip, stream: "a:0"))
        var frames = try luma(out, folder)
        XCTAssertEqual(frames.count, 50)
        XCTAssertTrue(dark(frames, 0, 60, 60) && dark(frames, 9, 60, 60), "track 1 filled on its frames")
        XCTAssertFalse(dark(frames, 10, 60, 60), "and not after them")
        XCTAssertTrue(dark(frames, 0, 220, 120) && dark(frames, 20, 260, 120))
        XCTAssertFalse(dark(frames, 10, 240, 120), "no row, no face: gaps stay empty without --interpolate")
        XCTAssertFalse(dark(frames, 0, 160, 200), "the rest of the frame untouched")

        // --interpolate fills track 2's gap: on frame 10 it is halfway, at (220,100).
        let filled = try render([clip, "--tracks", tracks, "-o", out, "--anonymize", "fill", "--overlay", "none", "--interpolate"])
        XCTAssertEqual(filled.status, 0, filled.stderr)
        XCTAssertTrue(filled.stderr.contains("31 faces drawn, 2 tracks, 19 interpolated"), filled.stderr)
        frames = try luma(out, folder)
        XCTAssertTrue(dark(frames, 10, 240, 120))
        XCTAssertFalse(dark(frames, 10, 205, 120), "the box moved: its old left edge is clear")
        XCTAssertFalse(dark(frames, 30, 260, 120), "nothing after the track's last row")
    }

    func testSpanDrawsTheRowsOfItsFramesFromTimeZero() throws {
        let folder = try TemporaryFolder()
        let clip = try whiteClip(folder), tracks = folder.file("t.csv"), out = folder.file("part.mp4")
        try write(([Self.header] + (20..<40).map { row($0, 1, 40, 40) }).joined(separator: "\n") + "\n", tracks)
        let run = try render([clip, "--tracks", tracks, "-o", out, "--anonymize", "fill", "--overlay", "none",
                              "--start", "1", "--end", "1.4"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("10 frames, 10 faces drawn"), run.stderr)
        let times = try Tools.videoFrameTimes(out)
        XCTAssertEqual(times.count, 10)
        XCTAssertEqual(times.first ?? -1, 0, accuracy: 0.001)
        let frames = try luma(out, folder)
        XCTAssertTrue(dark(frames, 0, 60, 60) && dark(frames, 9, 60, 60), "frames 25-34 of the video, each with its row")
        XCTAssertFalse(try Tools.ffprobe(["-select_streams", "a:0", "-show_entries", "packet=pts", "-of", "csv=p=0", out]).isEmpty)
    }

    /// A video stored turned (rotation metadata): rows are in the upright frame, and the mask lands on the face.
    func testRotatedVideoIsDrawnInTheUprightFrame() throws {
        let folder = try TemporaryFolder()
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples").path
        let clip = samples + "/portrait-rotated.mp4", out = folder.file("out.mp4"), raw = folder.file("f.gray")
        let run = try render([clip, "--tracks", samples + "/portrait-rotated.truth.csv", "-o", out, "--anonymize", "fill",
                              "--overlay", "none"])
        XCTAssertEqual(run.status, 0, run.stderr)
        // ffmpeg turns the picture upright (360x640); truth frame 30: box 131,210 145.6x145.6.
        try Tools.ffmpeg(["-i", out, "-vf", "select=eq(n\\,30)", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", raw])
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        XCTAssertEqual(pixels.count, 360 * 640)
        XCTAssertLessThan(pixels[(210 + 73) * 360 + 131 + 73], 40, "the face's centre is filled")
        XCTAssertGreaterThan(pixels[20 * 360 + 20], 20, "the background is not")
    }

    func testMOTChallengeTextDrawsTheSameAsTheCSV() throws {
        let folder = try TemporaryFolder()
        let clip = try whiteClip(folder), csv = folder.file("t.csv"), mot = folder.file("t.txt")
        try write([Self.header, row(3, 1, 40, 40), row(4, 1, 44, 40), row(4, 7, 200, 120, 60, 50)].joined(separator: "\n") + "\n", csv)
        try write("4,1,40,40,40,40,0.9,-1,-1,-1\n5,1,44,40,40,40,0.9,-1,-1,-1\n5,7,200,120,60,50,0.9,-1,-1,-1\n", mot)
        let a = folder.file("a.mp4"), b = folder.file("b.mp4")
        XCTAssertEqual(try render([clip, "--tracks", csv, "-o", a, "--overlay", "all", "--crf", "10", "-q"]).status, 0)
        XCTAssertEqual(try render([clip, "--tracks", mot, "-o", b, "--overlay", "all", "--crf", "10", "-q"]).status, 0)
        let md5 = { (path: String) in try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"]).stdout }
        XCTAssertEqual(try md5(a), try md5(b))
        let frames = try luma(a, folder)
        XCTAssertFalse(frames[4].allSatisfy { $0 > 200 }, "boxes drawn")
        XCTAssertTrue(frames[0].allSatisfy { $0 > 200 }, "frame 0 has no rows")
    }

    func testBadTracksNameLineAndColumnAndWriteNothing() throws {
        let folder = try TemporaryFolder()
        let clip = try whiteClip(folder), tracks = folder.file("t.csv"), out = folder.file("out.mp4")
        let cases: [(String, String)] = [
            (Self.header + ",colour\n" + row(0, 1, 10, 10) + ",red\n",
             "t.csv: line 1, column 21: unknown column 'colour'"),
            (Self.header + "\n" + row(0, 1, 10, 10) + "\n" + row(1, 1, 10, 10).replacingOccurrences(of: ",40.00,", with: ",forty,", options: [], range: nil) + "\n",
             "t.csv: line 3, column 6: width 'forty' is not a number"),
            (Self.header + "\n" + row(0, 1, 10, 10) + "\n" + row(80, 1, 10, 10) + "\n",
             "t.csv: line 3, column 1: frame 80 is beyond the video (\(clip) has 50 frames, 0-49)"),
            // One past the last frame: the container's count may be one off, so this is found after reading.
            (Self.header + "\n" + row(0, 1, 10, 10) + "\n" + row(50, 1, 10, 10) + "\n",
             "t.csv: line 3, column 1: frame 50 is beyond the video (\(clip) has 50 frames, 0-49)"),
            (Self.header + "\n" + row(2, 1, 500, 10) + "\n",
             "t.csv: line 2, column 4: box at 500.00,10.00 size 40.00x40.00 lies outside the 320x240 frame of \(clip)"),
            ("1,1,abc,10,40,40,1,-1,-1,-1\n", "t.txt: line 1, column 3: x 'abc' is not a number"),
        ]
        for (text, expected) in cases {
            let path = expected.hasPrefix("t.txt") ? folder.file("t.txt") : tracks
            try write(text, path)
            let result = try render([clip, "--tracks", path, "-o", out])
            XCTAssertEqual(result.status, 1, expected)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(folder.path + "/" + expected), "\(result.stderr) vs \(expected)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing written for \(expected)")
            XCTAssertFalse(folder.contents().contains { $0.contains("out.mp4") }, "no temporary file: \(folder.contents())")
        }
    }

    /// An `--anonymize` run's held mask follows a face out of the picture: its `predicted` row may
    /// lie wholly outside the frame (5d50693 refused the CSV), a detection may not.
    func testPredictedRowOutsideTheFrameIsAccepted() throws {
        let folder = try TemporaryFolder()
        let clip = try whiteClip(folder), tracks = folder.file("t.csv"), out = folder.file("out.mp4")
        let held = row(1, nil, -60, 10).replacingOccurrences(of: ",detected", with: ",predicted")
        try write([Self.header, row(0, nil, 5, 10), held].joined(separator: "\n") + "\n", tracks)
        let run = try render([clip, "--tracks", tracks, "-o", out, "--anonymize", "fill", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        try write([Self.header, row(0, nil, 5, 10), row(1, nil, -60, 10)].joined(separator: "\n") + "\n", tracks)
        XCTAssertEqual(try render([clip, "--tracks", tracks, "-o", out, "--anonymize", "fill", "--quiet"]).status, 1)
    }

    /// Edits applied on the fly (`render --edits`) and written out (`apply-edits`) give the same video.
    func testEditsDropKeepMaskRenameSplitAndJoin() throws {
        let folder = try TemporaryFolder()
        let clip = try whiteClip(folder), tracks = folder.file("t.csv"), edits = folder.file("edits.json")
        var lines = [Self.header]
        for frame in 0..<6 {
            lines += [row(frame, 1, 20, 20), row(frame, 2, 100, 20), row(frame, 3, 180, 20)]
            lines.append(row(frame, frame < 3 ? 4 : 5, 20, 150))
        }
        try write(lines.joined(separator: "\n") + "\n", tracks)
        try write("""
            {"format": "facetrack-edits", "version": 1, "tracks": "t.csv", "edits": [
              {"op": "drop", "track": 1}, {"op": "keep", "track": 2}, {"op": "rename", "track": 3, "person": "Ana, B."},
              {"op": "split", "track": 3, "frame": 4, "new_track": 9}, {"op": "join", "track": 5, "into": 4}]}
            """, edits)
        let direct = folder.file("direct.mp4"), edited = folder.file("edited.csv"), viaFile = folder.file("via.mp4")
        let run = try render([clip, "--tracks", tracks, "--edits", edits, "-o", direct, "--anonymize", "fill", "--overlay", "none"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let apply = try Tools.run(Tools.facetrack, ["apply-edits", tracks, edits, "-o", edited])
        XCTAssertEqual(apply.status, 0, apply.stderr)
        XCTAssertTrue(apply.stderr.contains("wrote \(edited): 18 of 24 rows, 4 tracks"), apply.stderr)
        let written = try String(contentsOfFile: edited, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(written.first, Self.header + ",person,mask")
        XCTAssertEqual(written[1], row(0, 2, 100, 20) + ",,keep")
        XCTAssertEqual(written[2], row(0, 3, 180, 20) + ",\"Ana, B.\",")
        XCTAssertTrue(written.contains(row(4, 9, 180, 20) + ",\"Ana, B.\","), "split from frame 4")
        XCTAssertTrue(written.contains(row(5, 4, 20, 150) + ",,"), "track 5 joined 4")
        XCTAssertFalse(written.contains { $0.hasPrefix("0,0.000000,1,") }, "track 1 dropped")
        XCTAssertEqual(try render([clip, "--tracks", edited, "-o", viaFile, "--anonymize", "fill", "--overlay", "none"]).status, 0)
        let md5 = { (path: String) in try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"]).stdout }
        XCTAssertEqual(try md5(direct), try md5(viaFile))
        let frames = try luma(direct, folder)
        XCTAssertFalse(dark(frames, 0, 40, 40), "dropped: not masked")
        XCTAssertFalse(dark(frames, 0, 120, 40), "kept visible: not masked")
        XCTAssertTrue(dark(frames, 0, 200, 40) && dark(frames, 5, 200, 40), "masked before and after the split")
        XCTAssertTrue(dark(frames, 5, 40, 170))

        // Without --anonymize only the tracks marked "mask" are hidden.
        try write("""
            {"format": "facetrack-edits", "version": 1, "edits": [{"op": "mask", "track": 2}]}
            """, edits)
        let pattern = folder.file("pattern.mp4"), marked = folder.file("marked.mp4")
        try Clips.pattern(pattern, seconds: 0.4, size: "320x240")
        let only = try render([pattern, "--tracks", tracks, "--edits", edits, "-o", marked, "--overlay", "none", "--crf", "12"])
        XCTAssertEqual(only.status, 0, only.stderr)
        let before = try luma(pattern, folder)[0], after = try luma(marked, folder)[0]
        func change(_ x0: Int, _ y0: Int) -> Double {
            var sum = 0
            for y in (y0 + 10)..<(y0 + 30) { for x in (x0 + 10)..<(x0 + 30) { sum += abs(Int(before[y * 320 + x]) - Int(after[y * 320 + x])) } }
            return Double(sum) / 400
        }
        XCTAssertGreaterThan(change(100, 20), 8, "track 2, marked mask, is blurred")
        XCTAssertLessThan(change(180, 20), 3, "unmarked tracks stay as they were")
        XCTAssertLessThan(change(20, 20), 3)

        // An edit that does not fit the tracks is one line naming the file and the edit.
        try write("""
            {"format": "facetrack-edits", "version": 1, "edits": [{"op": "drop", "track": 1}, {"op": "keep", "track": 1}]}
            """, edits)
        let bad = try Tools.run(Tools.facetrack, ["apply-edits", tracks, edits, "-o", folder.file("x.csv")])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("\(edits): edit 2: track 1 is not in the tracks file"), bad.stderr)
        try write("{\"format\": \"facetrack-edits\", \"version\": 1, \"edits\": [{\"op\": \"split\", \"track\": 4, \"frame\": 2, \"new_track\": 5}]}",
                  edits)
        let taken = try Tools.run(Tools.facetrack, ["apply-edits", tracks, edits, "-o", folder.file("x.csv")])
        XCTAssertTrue(taken.stderr.contains("edit 1: track 5 already exists"), taken.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("x.csv")))
    }
}

/// `render --truth`: the visual diff of predictions against a truth file, on samples/crossing.mp4.
final class RenderDiffTests: XCTestCase {
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    /// The RGB of one frame, 640x360.
    private func rgb(_ video: String, frame: Int, _ folder: TemporaryFolder) throws -> [UInt8] {
        let raw = folder.file("frame.rgb")
        try Tools.ffmpeg(["-i", video, "-vf", "select=eq(n\\,\(frame))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// Whether a pixel of about `color` (r, g, b as 0 or 1) lies within 3 px of (x, y).
    private func near(_ pixels: [UInt8], _ x: Int, _ y: Int, _ color: (Int, Int, Int)) -> Bool {
        for dy in -3...3 {
            for dx in -3...3 {
                let i = ((y + dy) * 640 + x + dx) * 3
                let channels = [Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2])]
                if zip(channels, [color.0, color.1, color.2]).allSatisfy({ $1 == 1 ? $0 > 170 : $0 < 90 }) { return true }
            }
        }
        return false
    }

    func testMatchedMissedFalseAndIDSwitchAreDrawnAndCounted() throws {
        let folder = try TemporaryFolder()
        let truth = samples + "/crossing.truth.csv", prediction = folder.file("pred.csv"), out = folder.file("diff.mp4")
        // The truth itself, with track 2 moved 300 px right from frame 50 (missed + false) and
        // track 1 renamed 5 from frame 70 (one ID switch).
        var lines = try String(contentsOfFile: truth, encoding: .utf8).split(separator: "\n").map(String.init)
        for i in 1..<lines.count {
            var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let frame = Int(fields[0])!
            if fields[2] == "2", frame >= 50 { fields[3] = String(format: "%.2f", Double(fields[3])! + 300) }
            if fields[2] == "1", frame >= 70 { fields[2] = "5" }
            lines[i] = fields.joined(separator: ",")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: prediction, atomically: false, encoding: .utf8)
        let run = try Tools.run(Tools.facetrack, ["render", samples + "/crossing.mp4", "--tracks", prediction, "--truth", truth,
                                                  "-o", out, "--crf", "12"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("diff: 150 matched, 50 missed, 50 false, 1 ID switches"), run.stderr)
        // The truth rows of frames 60 and 70 say where the boxes are.
        func box(_ frame: Int, _ id: String) throws -> (x: Int, y: Int, w: Int, h: Int) {
            let line = try XCTUnwrap(try String(contentsOfFile: truth, encoding: .utf8).split(separator: "\n")
                .first { $0.hasPrefix("\(frame),") && $0.split(separator: ",")[2] == id })
            let f = line.split(separator: ",").map { Double($0) ?? 0 }
            return (Int(f[3].rounded()), Int(f[4].rounded()), Int(f[5].rounded()), Int(f[6].rounded()))
        }
        let frame60 = try rgb(out, frame: 60, folder)
        let t2 = try box(60, "2"), t1 = try box(60, "1")
        XCTAssertTrue(near(frame60, t2.x, t2.y + t2.h / 2, (1, 0, 0)), "missed truth face: red box")
        XCTAssertTrue(near(frame60, t2.x + 300, t2.y + t2.h / 2, (1, 1, 0)), "false detection: yellow box")
        XCTAssertTrue(near(frame60, t1.x + t1.w, t1.y + t1.h / 2, (0, 1, 0)), "matched: green box")
        XCTAssertFalse(near(frame60, t1.x + t1.w + 4, t1.y + t1.h / 2, (1, 0, 1)), "no switch on frame 60")
        let frame70 = try rgb(out, frame: 70, folder), s1 = try box(70, "1")
        XCTAssertTrue(near(frame70, s1.x + s1.w + 4, s1.y + s1.h / 2, (1, 0, 1)), "the ID switch ringed magenta on its frame")
        let frame71 = try rgb(out, frame: 71, folder), n1 = try box(71, "1")
        XCTAssertFalse(near(frame71, n1.x + n1.w + 4, n1.y + n1.h / 2, (1, 0, 1)), "and only there")
        XCTAssertTrue(near(frame60, 6, 6, (0, 1, 0)), "the legend's first key is green")
    }

    func testFramesTheTruthLacksAreAnError() throws {
        let folder = try TemporaryFolder()
        let truth = folder.file("truth.csv"), prediction = folder.file("pred.csv")
        let lines = try String(contentsOfFile: samples + "/crossing.truth.csv", encoding: .utf8).split(separator: "\n")
        try (lines.prefix(21).joined(separator: "\n") + "\n").write(toFile: truth, atomically: false, encoding: .utf8)
        try (lines.prefix(41).joined(separator: "\n") + "\n").write(toFile: prediction, atomically: false, encoding: .utf8)
        let run = try Tools.run(Tools.facetrack, ["render", samples + "/crossing.mp4", "--tracks", prediction, "--truth", truth,
                                                  "-o", folder.file("d.mp4")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("pred.csv"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("d.mp4")))
    }
}
