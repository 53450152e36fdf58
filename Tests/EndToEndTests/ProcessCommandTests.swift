import Foundation
import TestSupport
import XCTest

/// `facetrack process` run as a user runs it: the built executable on clips made with ffmpeg.
final class ProcessCommandTests: XCTestCase {
    private func facetrack(_ arguments: [String]) throws -> Tools.Result {
        try Tools.run(Tools.facetrack, arguments)
    }

    /// Frame count, timestamps and audio packets survive the re-encode exactly.
    func testReencodeKeepsFramesTimestampsAndAudio() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4"), out = folder.file("out.mp4"), csv = folder.file("tracks.csv")
        try Clips.pattern(clip, seconds: 2, rate: 25)
        let result = try facetrack(["process", clip, "-o", out, "--csv", csv, "--detector", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "", "nothing on stdout unless asked")
        XCTAssertTrue(result.stderr.contains("50 frames"), result.stderr)
        XCTAssertEqual(try Tools.videoFrameTimes(out), try Tools.videoFrameTimes(clip))
        XCTAssertEqual(try Tools.packetCount(out, stream: "a:0"), try Tools.packetCount(clip, stream: "a:0"))
        XCTAssertEqual(try Tools.ffprobe(["-select_streams", "a:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", out])
            .trimmingCharacters(in: .whitespacesAndNewlines), "aac")
        let header = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").first
        XCTAssertEqual(header.map(String.init), "frame,time,track_id,x,y,width,height,confidence,left_eye_x,left_eye_y,"
            + "right_eye_x,right_eye_y,mouth_x,mouth_y,has_smile,left_eye_closed,right_eye_closed,roll,yaw,source,shot")
        XCTAssertEqual(folder.contents(), ["clip.mp4", "out.mp4", "tracks.csv"], "no temporary files left")
    }

    /// Variable frame rate: the irregular timestamps come out as they went in.
    func testVariableFrameRateIsPreserved() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("vfr.mkv"), out = folder.file("out.mkv")
        // Drop frames irregularly so the gaps between timestamps vary.
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-t", "2",
                          "-vf", "select='not(eq(mod(n\\,5)\\,1))*not(eq(mod(n\\,7)\\,3))'", "-fps_mode", "vfr",
                          "-c:v", "libx264", "-preset", "ultrafast", clip])
        let input = try Tools.videoFrameTimes(clip)
        XCTAssertGreaterThan(Set(zip(input.dropFirst(), input).map { (($0 - $1) * 1000).rounded() }).count, 1, "fixture is VFR")
        let result = try facetrack(["process", clip, "-o", out, "--detector", "none", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "--quiet prints nothing")
        XCTAssertEqual(try Tools.videoFrameTimes(out), input)
    }

    /// The rotation tag is copied, frames stay stored as they were.
    func testRotationMetadataIsKept() throws {
        let folder = try TemporaryFolder()
        let plain = folder.file("plain.mp4"), clip = folder.file("portrait.mp4"), out = folder.file("out.mp4")
        try Clips.pattern(plain, seconds: 0.4, size: "160x96")
        try Tools.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", clip])
        let result = try facetrack(["process", clip, "-o", out, "--detector", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rotation = { (path: String) in
            try Tools.ffprobe(["-select_streams", "v:0", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0", path])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertFalse(try rotation(clip).isEmpty)
        XCTAssertEqual(try rotation(out), try rotation(clip))
        XCTAssertTrue(try Tools.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", out])
            .hasPrefix("160,96"), "frames stay in their stored orientation")
    }

    /// A solid colour survives decode, BGRA and encode within a few code values.
    func testSolidColourRoundTrip() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("solid.mp4"), out = folder.file("out.mp4"), raw = folder.file("frame.rgb")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=0x3060C0:size=64x64:rate=10", "-frames:v", "5",
                          "-vf", "format=rgb24,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p",
                          "-colorspace", "bt709", "-c:v", "libx264", "-qp", "0", clip])
        XCTAssertEqual(try facetrack(["process", clip, "-o", out, "--detector", "none", "--crf", "0"]).status, 0)
        try Tools.ffmpeg(["-i", out, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let centre = (32 * 64 + 32) * 3
        XCTAssertEqual(Double(bytes[centre]), 0x30, accuracy: 3)
        XCTAssertEqual(Double(bytes[centre + 1]), 0x60, accuracy: 3)
        XCTAssertEqual(Double(bytes[centre + 2]), 0xC0, accuracy: 3)
    }

    /// Containers follow the extension; each codec option encodes.
    func testContainersAndCodecs() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 0.4, size: "128x96")
        for (name, codec) in [("a.mkv", "libx265"), ("b.mov", "libx264"), ("c.avi", "mpeg4")] {
            let out = folder.file(name)
            let result = try facetrack(["process", clip, "-o", out, "--codec", codec, "--preset", "ultrafast", "--detector", "none"])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertEqual(try Tools.videoFrameTimes(out).count, try Tools.videoFrameTimes(clip).count, name)
        }
        // WebM cannot hold AAC: a clear error, no file.
        let webm = folder.file("d.webm")
        let result = try facetrack(["process", clip, "-o", webm, "--codec", "libx264", "--detector", "none"])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: webm))
    }

    /// A still image is a one-frame input.
    func testStillImageInput() throws {
        let folder = try TemporaryFolder()
        let photo = folder.file("photo.png"), csv = folder.file("faces.csv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", photo])
        let result = try facetrack(["process", photo, "--csv", csv, "--detector", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("1 frames"), result.stderr)
    }

    /// SIGINT stops reading, finishes a playable file with the frames done, exits 130.
    func testInterruptFinishesTheContainer() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("long.mp4"), out = folder.file("out.mp4")
        try Clips.pattern(clip, seconds: 30, size: "640x360", rate: 30)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.facetrack)
        process.arguments = ["process", clip, "-o", out, "--detector", "none", "--preset", "slow"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Wait until the encoder has produced something, then interrupt.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !folder.contents().contains(where: { $0.contains("partial") }) { usleep(50_000) }
        usleep(700_000)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 130, message)
        XCTAssertTrue(message.contains("interrupted: stopped after frame"), message)
        let frames = try Tools.videoFrameTimes(out).count
        XCTAssertGreaterThan(frames, 0)
        XCTAssertLessThan(frames, 900)
        XCTAssertEqual(folder.contents(), ["long.mp4", "out.mp4"])
    }
}
