import Foundation
import TestSupport
import XCTest

/// The overlay really lands in the encoded video, where the CSV says the face is.
final class OverlayOutputTests: XCTestCase {
    private var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    func testBoxEdgeIsRedInTheEncodedOutput() throws {
        try assertBoxDrawn(sample: "demo.mp4", uprightWidth: 640)
    }

    /// A portrait clip stored sideways with a rotation tag: a player shows it upright (ffmpeg
    /// rotates it here as a player would), and the box sits on the face at the CSV's upright coordinates.
    func testOverlayFollowsTheFaceInARotatedClip() throws {
        try assertBoxDrawn(sample: "portrait-rotated.mp4", uprightWidth: 360)
    }

    private func assertBoxDrawn(sample name: String, uprightWidth: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = try TemporaryFolder()
        let out = folder.file("out.mp4"), csv = folder.file("tracks.csv"), raw = folder.file("frame.rgb")
        let sample = repository + "/samples/" + name
        let result = try Tools.run(Tools.facetrack, ["process", sample, "-o", out, "--csv", csv, "--overlay", "boxes",
                                                     "--no-smooth", "--detector", "blazeface", "--crf", "10"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let frame = 40
        let row = try XCTUnwrap(String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("\(frame),") }, "a face on frame \(frame)")
        let fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let (x, y, w, h) = (Double(fields[3])!, Double(fields[4])!, Double(fields[5])!, Double(fields[6])!)
        try Tools.ffmpeg(["-i", out, "-vf", "select=eq(n\\,\(frame))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let sourceRaw = folder.file("source.rgb")
        try Tools.ffmpeg(["-i", sample, "-vf", "select=eq(n\\,\(frame))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", sourceRaw])
        let source = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sourceRaw)))
        func redness(_ px: Double, _ py: Double) -> Int {
            let i = (Int(py) * uprightWidth + Int(px)) * 3
            return Int(pixels[i]) - max(Int(pixels[i + 1]), Int(pixels[i + 2]))
        }
        // Middle of each edge, one pixel inside the box: the outline is drawn inside the box edge.
        XCTAssertGreaterThan(redness(x + w / 2, y + 1), 100, "top edge", file: file, line: line)
        XCTAssertGreaterThan(redness(x + w / 2, y + h - 1.5), 100, "bottom edge", file: file, line: line)
        XCTAssertGreaterThan(redness(x + 1, y + h / 2), 100, "left edge", file: file, line: line)
        XCTAssertGreaterThan(redness(x + w - 1.5, y + h / 2), 100, "right edge", file: file, line: line)
        // Inside the outline the picture is the source's, within codec tolerance.
        let centre = (Int(y + h / 2) * uprightWidth + Int(x + w / 2)) * 3
        for channel in 0..<3 {
            XCTAssertEqual(Double(pixels[centre + channel]), Double(source[centre + channel]), accuracy: 24,
                           "the box is an outline, the face stays visible", file: file, line: line)
        }
    }
}
