import Foundation
import TestSupport
import XCTest

/// Containers: cut files warn in every container, AVI's off-by-one count does not, WebM output
/// gets a codec it takes (issue 16).
final class ContainerTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }

    private func process(_ input: String, _ extra: [String] = []) throws -> Tools.Result {
        try Tools.run(Tools.facetrack, ["process", input, "--csv", folder.file("out.csv"), "--detector", "none", "--quiet"] + extra)
    }

    func testTruncatedMatroskaWarns() throws {
        let full = folder.file("full.mkv")
        try Clips.pattern(full, seconds: 4, size: "160x120")
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let cut = folder.file("cut.mkv")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let whole = try process(full)
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertFalse(whole.stderr.contains("ends early"), whole.stderr)
        let result = try process(cut)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("cut.mkv: file ends early"), result.stderr)
    }

    func testAVIHeaderCountingOneFrameMoreIsNoWarning() throws {
        let avi = folder.file("clip.avi")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine", "-t", "2.04",
                          "-c:v", "mpeg4", "-c:a", "libmp3lame", avi])
        let result = try process(avi)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("ends early"), result.stderr)
    }

    func testWebMOutputGetsVP9AndARefusedCodecIsNamedUpFront() throws {
        let clip = folder.file("clip.webm")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.3", "-c:v", "libvpx-vp9",
                          "-deadline", "realtime", clip])
        let out = folder.file("out.webm")
        let result = try process(clip, ["-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let codec = try Tools.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", out])
        XCTAssertEqual(codec.trimmingCharacters(in: .whitespacesAndNewlines), "vp9")
        let refused = try process(clip, ["-o", folder.file("x264.webm"), "--codec", "libx264"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("x264.webm: the webm container cannot hold libx264 video; use --codec libvpx-vp9"),
                      refused.stderr)
    }
}
