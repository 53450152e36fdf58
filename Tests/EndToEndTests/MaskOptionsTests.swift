import Foundation
import TestSupport
import XCTest

/// `--anonymize image:FILE`, `--mask-shape` and `--fill-color` as a user runs them: drawn by
/// `render` on a grey clip where every pixel can be checked, by `process` and `batch` over a
/// detected face, counted by `eval` and `check`, and refused with one line when the input is bad.
final class MaskOptionsTests: XCTestCase {
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path
    private static let header = "frame,time,track_id,x,y,width,height,confidence,left_eye_x,left_eye_y,right_eye_x,"
        + "right_eye_y,mouth_x,mouth_y,has_smile,left_eye_closed,right_eye_closed,roll,yaw,source"

    /// 10 frames of mid grey, 320x240, and tracks with one 60x60 face at (100, 80) on each: its
    /// mask box at scale 1.3 is centred on (130, 110) with radius 39, pixels 91-168 by 71-148.
    private func greyClipAndTracks(_ folder: TemporaryFolder) throws -> (clip: String, tracks: String) {
        let clip = folder.file("grey.mp4"), tracks = folder.file("t.csv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:size=320x240:rate=25", "-frames:v", "10", "-c:v", "libx264",
                          "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip])
        let rows = (0..<10).map { String(format: "%d,%.6f,1,100.00,80.00,60.00,60.00,0.9000,,,,,,,,,,,,detected", $0, Double($0) / 25) }
        try ([Self.header] + rows).joined(separator: "\n").appending("\n").write(toFile: tracks, atomically: false, encoding: .utf8)
        return (clip, tracks)
    }

    /// Frame `frame` of `video` as RGB bytes.
    private func rgb(_ video: String, frame: Int = 5, _ folder: TemporaryFolder) throws -> (width: Int, bytes: [UInt8]) {
        let raw = folder.file("frame.rgb")
        try? FileManager.default.removeItem(atPath: raw)
        try Tools.ffmpeg(["-i", video, "-vf", "select=eq(n\\,\(frame))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let width = Int(try Tools.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=width", "-of", "csv=p=0", video])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return (width, [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))))
    }

    private func assertColour(_ frame: (width: Int, bytes: [UInt8]), _ x: Int, _ y: Int, _ expected: [Double],
                              _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let i = (y * frame.width + x) * 3
        for c in 0..<3 {
            XCTAssertEqual(Double(frame.bytes[i + c]), expected[c], accuracy: 14, "\(what) at (\(x), \(y)), channel \(c)",
                           file: file, line: line)
        }
    }

    /// Renders the grey clip's tracks to `output` with `options`, faces drawn with no other overlay.
    private func render(_ clip: (clip: String, tracks: String), to output: String, _ options: [String],
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try Tools.run(Tools.facetrack, ["render", clip.clip, "--tracks", clip.tracks, "--overlay", "none", "--crf", "10",
                                                  "-q", "-o", output] + options)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
    }

    private let grey = [128.0, 128, 128], red = [255.0, 0, 0], green = [0.0, 255, 0], blue = [0.0, 0, 255]

    /// A PNG of `size` from an RGBA `geq` expression set.
    private func picture(_ path: String, size: String, _ expressions: String) throws {
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=black:size=\(size),format=rgba,geq=\(expressions)", "-frames:v", "1", path])
    }

    func testRenderFillsTheBoxOrEllipseInTheChosenColour() throws {
        let folder = try TemporaryFolder()
        let clip = try greyClipAndTracks(folder)
        let box = folder.file("box.mp4"), ellipse = folder.file("ellipse.mp4")
        try render(clip, to: box, ["--anonymize", "fill", "--fill-color", "#00ff00", "--mask-shape", "box"])
        try render(clip, to: ellipse, ["--anonymize", "fill", "--fill-color", "red"])
        let b = try rgb(box, folder), e = try rgb(ellipse, folder)
        let expected = [(b, 130, 110, green, "box centre"), (b, 94, 74, green, "box corner"), (b, 165, 145, green, "box corner"),
                        (b, 87, 110, grey, "left of the box"), (b, 130, 152, grey, "below the box"),
                        (e, 130, 110, red, "ellipse centre"), (e, 94, 74, grey, "the box corner is outside the ellipse"),
                        (e, 94, 110, red, "the ellipse reaches the box's side")]
        for (frame, x, y, colour, what) in expected { assertColour(frame, x, y, colour, what) }
    }

    func testRenderScalesThePictureToTheMaskBoxAndBlendsItsAlpha() throws {
        let folder = try TemporaryFolder()
        let clip = try greyClipAndTracks(folder)
        // 32x32: left half red, right half blue, top-left quarter transparent.
        let quarters = folder.file("quarters.png"), half = folder.file("half.png")
        try picture(quarters, size: "32x32", "r='if(lt(X,16),255,0)':g='0':b='if(lt(X,16),0,255)':a='if(lt(X,16)*lt(Y,16),0,255)'")
        try picture(half, size: "8x8", "r='255':g='0':b='0':a='128'")
        let out = folder.file("image.mp4"), mixed = folder.file("half.mp4")
        try render(clip, to: out, ["--anonymize", "image:" + quarters])
        try render(clip, to: mixed, ["--anonymize", "image:" + half])
        let q = try rgb(out, folder)
        let expected = [(94, 145, red, "bottom-left of the mask box"), (165, 74, blue, "top-right of the mask box"),
                        (165, 145, blue, "bottom-right of the mask box"), (100, 80, grey, "the transparent quarter shows the frame"),
                        (87, 140, grey, "left of the mask box"), (172, 80, grey, "right of the mask box")]
        for (x, y, colour, what) in expected { assertColour(q, x, y, colour, what) }
        // Red at alpha 128 over grey 128: (255 + 128) / 2, 128 / 2, 128 / 2.
        assertColour(try rgb(mixed, folder), 130, 110, [191.5, 64, 64], "half-transparent red over grey")
    }

    /// process and batch draw the picture over the face they detect (8 frames of zoom.mp4).
    func testProcessAndBatchDrawThePictureOverTheDetectedFace() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("zoom.mp4"), dot = folder.file("dot.png")
        try Tools.ffmpeg(["-i", samples + "/zoom.mp4", "-frames:v", "8", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", clip])
        try picture(dot, size: "16x16", "r='255':g='0':b='255':a='255'")
        let out = folder.file("o.mp4"), csv = folder.file("o.csv")
        let run = try Tools.run(Tools.facetrack, ["process", clip, "--anonymize", "image:" + dot, "--overlay", "none",
                                                  "-o", out, "--csv", csv, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let batch = try Tools.run(Tools.facetrack, ["batch", clip, "--out", folder.file("out"), "--anonymize", "image:" + dot,
                                                    "--overlay", "none", "--quiet"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        // The mask's region is the CSV's mask columns (the head around the box; MaskRegion).
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        let header = try XCTUnwrap(lines.first).split(separator: ",").map(String.init)
        let row = try XCTUnwrap(lines.first { $0.hasPrefix("5,") }).split(separator: ",", omittingEmptySubsequences: false)
        func column(_ name: String) throws -> Double { try XCTUnwrap(header.firstIndex(of: name).flatMap { Double(row[$0]) }, name) }
        let (x, y, w, h) = (try column("mask_x"), try column("mask_y"), try column("mask_width"), try column("mask_height"))
        for video in [out, folder.file("out/zoom.mp4")] {
            let frame = try rgb(video, folder)
            // The centre and a box corner (outside an ellipse) are magenta; the source there is not.
            assertColour(frame, Int(x + w / 2), Int(y + h / 2), [255, 0, 255], "\(video): face centre")
            assertColour(frame, Int(x - 0.07 * w), Int(y - 0.07 * h), [255, 0, 255], "\(video): mask box corner")
        }
    }

    func testBadPicturesAndValuesFailWithOneLineAndWriteNothing() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4"), out = folder.file("out.mp4"), dot = folder.file("dot.png")
        try Clips.pattern(clip, seconds: 0.2, size: "96x64")
        try picture(dot, size: "4x4", "r='255':g='0':b='0':a='255'")
        let text = folder.file("notes.png"), directory = folder.file("pictures.png")
        try "not an image".write(toFile: text, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let cases: [([String], Int32, String)] = [
            (["--anonymize", "image:" + folder.file("missing.png")], 1, "--anonymize: \(folder.file("missing.png")): no such file"),
            (["--anonymize", "image:" + text], 1, "--anonymize: \(text): no video frame could be decoded"),
            (["--anonymize", "image:"], 2, "--anonymize: 'image:' names no picture"),
            (["--anonymize", "image"], 2, "--anonymize: 'image' names no picture"),
            (["--anonymize", "image:" + directory], 1, "--anonymize: \(directory): is a directory"),
            (["--anonymize", "image:" + clip], 1, "--anonymize: \(clip): is a video, not a still image"),
            (["--anonymize", "image:" + dot, "--csv", dot], 1, "\(dot): output path is the --anonymize picture"),
            (["--anonymize", "image:" + dot, "--mask-shape", "box"], 2, "--mask-shape: an image:FILE mask has the picture's own shape"),
            (["--anonymize", "fill", "--mask-shape", "star"], 2, "--mask-shape: unknown shape 'star' (valid: ellipse, box)"),
            (["--anonymize", "fill", "--fill-color", "#12345"], 2, "--fill-color: cannot read colour '#12345'"),
            (["--anonymize", "blur", "--fill-color", "red"], 2, "--fill-color: only --anonymize fill paints a colour"),
        ]
        for (options, status, message) in cases {
            let result = try Tools.run(Tools.facetrack, ["process", clip, "-o", out, "--detector", "none"] + options)
            XCTAssertEqual(result.status, status, "\(options): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertTrue(lines.first?.hasPrefix("facetrack: error: \(message)") == true, "\(options): \(result.stderr)")
            XCTAssertEqual(lines.count, status == 2 ? 2 : 1, "one line (and the help hint for a usage error): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(options)")
        }
        // render and batch load the picture the same way, before anything is written.
        let tracks = folder.file("t.csv")
        try (Self.header + "\n0,0.000000,1,10.00,10.00,20.00,20.00,0.9000,,,,,,,,,,,,detected\n")
            .write(toFile: tracks, atomically: false, encoding: .utf8)
        let render = try Tools.run(Tools.facetrack, ["render", clip, "--tracks", tracks, "-o", out, "--anonymize", "image:" + clip])
        XCTAssertEqual(render.status, 1, render.stderr)
        XCTAssertTrue(render.stderr.hasPrefix("facetrack: error: --anonymize: \(clip): is a video"), render.stderr)
        let batch = try Tools.run(Tools.facetrack, ["batch", clip, "--out", folder.file("batch"), "--anonymize", "image:" + text])
        XCTAssertEqual(batch.status, 1, batch.stderr)
        XCTAssertTrue(batch.stderr.hasPrefix("facetrack: error: --anonymize: \(text)"), batch.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("batch/clip.mp4")))
    }

    func testEvalAndCheckCountTheMaskShape() throws {
        let folder = try TemporaryFolder()
        // eval: a 10x10 face and a mask one pixel to the right, at scale 1: the ellipse holds 76 of
        // its 100 pixels (exposed), the box 90 (covered).
        let truth = folder.file("truth.csv"), pred = folder.file("pred.csv")
        try "\(Self.header)\n0,0.000000,1,0.00,0.00,10.00,10.00,1.0000,,,,,,,,,,,,truth\n"
            .write(toFile: truth, atomically: false, encoding: .utf8)
        try "\(Self.header)\n0,0.000000,1,1.00,0.00,10.00,10.00,0.9000,,,,,,,,,,,,detected\n"
            .write(toFile: pred, atomically: false, encoding: .utf8)
        func coverage(_ extra: [String]) throws -> Double? {
            let run = try Tools.run(Tools.facetrack, ["eval", "--truth", truth, "--pred", pred, "--json", "--mask-scale", "1"] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            return (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["mask_coverage"] as? Double
        }
        XCTAssertEqual(try coverage([]), 0)
        XCTAssertEqual(try coverage(["--mask-shape", "box"]), 1)

        // check: each clip is counted with its own options; an image mask counts as its box.
        let clip = folder.file("crossing.mp4"), dot = folder.file("dot.png"), cut = folder.file("cut.csv")
        try Tools.ffmpeg(["-i", samples + "/crossing.mp4", "-frames:v", "2", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "18", clip])
        try picture(dot, size: "4x4", "r='255':g='0':b='0':a='255'")
        let lines = try String(contentsOfFile: samples + "/crossing.truth.csv", encoding: .utf8).split(separator: "\n")
        try (lines.prefix(1) + lines.dropFirst().filter { ["0", "1"].contains($0.split(separator: ",").first.map(String.init)) })
            .joined(separator: "\n").appending("\n").write(toFile: cut, atomically: false, encoding: .utf8)
        func entry(_ name: String, _ options: [String]) -> String {
            let all = ["--detector", "blazeface", "--model", "full", "--mask-scale", "1"] + options
            return "{\"name\": \"\(name)\", \"clip\": \"crossing.mp4\", \"truth\": \"cut.csv\", "
                + "\"options\": [\(all.map { "\"\($0)\"" }.joined(separator: ", "))], \"thresholds\": {\"mask_coverage\": 0.5}}"
        }
        let manifest = folder.file("manifest.json")
        try ("{\"clips\": [" + [entry("box", ["--anonymize", "fill", "--mask-shape", "box"]), entry("ellipse", ["--anonymize", "fill"]),
                               entry("image", ["--anonymize", "image:" + dot])].joined(separator: ",\n") + "]}")
            .write(toFile: manifest, atomically: false, encoding: .utf8)
        let check = try Tools.run(Tools.facetrack, ["check", manifest])
        let out = check.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(out.contains { $0.hasPrefix("PASS box:") }, check.stdout + check.stderr)
        XCTAssertTrue(out.contains { $0.hasPrefix("FAIL ellipse: mask_coverage 0.0000 < 0.5000") }, check.stdout + check.stderr)
        XCTAssertTrue(out.contains { $0.hasPrefix("PASS image:") }, check.stdout + check.stderr)
    }
}
