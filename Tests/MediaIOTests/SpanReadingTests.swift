import FaceCore
@testable import MediaIO
import TestSupport
import XCTest

/// Reading a span (`--start`/`--end`): the frames handed out are exactly those of a whole read
/// whose times lie in the span, with the same numbers and timestamps; decoding starts at the
/// keyframe before the span, found in the index (mp4) or by reading packets (mkv, mpeg-ts);
/// audio packets outside the span are left out.
final class SpanReadingTests: XCTestCase {
    /// 4 s at 25 fps, a keyframe every second exactly (no scene-cut keyframes), B-frames, AAC.
    private func clip(_ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.file(name)
        try Clips.pattern(path, seconds: 4, extra: ["-x264-params", "keyint=25:min-keyint=25:scenecut=0:bframes=3"])
        return path
    }

    private struct Read {
        var frames: [(index: Int, position: Int, pts: Int64, time: Double)] = []
        var audioTimes: [Double] = []
        var firstDecoded = 0
        /// The video's first presentation time: spans count from there.
        var origin = 0.0
    }

    private func read(_ path: String, span: TimeSpan? = nil) throws -> Read {
        let reader = try VideoReader(path: path, threads: 1, span: span)
        var read = Read(firstDecoded: reader.firstDecodedNumber, origin: reader.startTime)
        while let item = try reader.next() {
            switch item {
            case .frame(let f): read.frames.append((f.index, f.position, f.pts, f.time))
            case .audio(let packet):
                let timeBase = reader.demuxer.stream(packet.streamIndex).pointee.time_base
                read.audioTimes.append(Double(packet.pointer.pointee.pts) * Double(timeBase.num) / Double(timeBase.den) - read.origin)
            }
        }
        return read
    }

    private func checkSpans(in path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let whole = try read(path)
        XCTAssertEqual(whole.frames.count, 100, file: file, line: line)
        XCTAssertEqual(whole.frames.map(\.index), Array(0..<100), file: file, line: line)
        // Starts inside a group of pictures, on a keyframe, one frame before one, and in the first group.
        for (start, end, keyframe) in [(1.3, 2.5, 25), (2.0, 3.0, 50), (1.96, nil, 25), (0.5, 1.0, 0), (3.9, nil, 75)] as [(Double, Double?, Int)] {
            let span = TimeSpan(start: start, end: end)
            let part = try read(path, span: span)
            let expected = whole.frames.filter { frame in
                let time = frame.time - whole.origin
                return time >= start - 1e-6 && (end.map { time < $0 - 1e-6 } ?? true)
            }
            XCTAssertEqual(part.frames.map(\.index), expected.map(\.index), "\(span)", file: file, line: line)
            XCTAssertEqual(part.frames.map(\.pts), expected.map(\.pts), "\(span)", file: file, line: line)
            XCTAssertEqual(part.frames.map(\.position), Array(0..<expected.count), "\(span)", file: file, line: line)
            XCTAssertEqual(part.firstDecoded, keyframe, "decoding starts at the keyframe before \(span)", file: file, line: line)
            XCTAssertFalse(part.audioTimes.isEmpty, file: file, line: line)
            XCTAssertTrue(part.audioTimes.allSatisfy { time in time >= start - 1e-6 && (end.map { time < $0 } ?? true) },
                          "audio of \(span): \(part.audioTimes.prefix(3))...", file: file, line: line)
        }
    }

    func testSpanOfAnMP4IsReadFromTheKeyframeTheIndexNames() throws {
        let folder = try TemporaryFolder()
        try checkSpans(in: try clip(folder, "clip.mp4"))
    }

    func testSpanOfContainersWithoutAFullIndexIsFoundByReadingPackets() throws {
        let folder = try TemporaryFolder()
        let mp4 = try clip(folder, "clip.mp4")
        for name in ["clip.mkv", "clip.ts"] {
            let copy = folder.file(name)
            try Tools.ffmpeg(["-i", mp4, "-c", "copy", copy])
            try checkSpans(in: copy)
        }
    }

    func testSpanBeyondTheVideoHasNoFramesAndAStillImageHasNoSpan() throws {
        let folder = try TemporaryFolder()
        let path = try clip(folder, "clip.mp4")
        XCTAssertEqual(try read(path, span: TimeSpan(start: 9)).frames.count, 0)
        let photo = folder.file("still.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", photo])
        XCTAssertThrowsError(try VideoReader(path: photo, span: TimeSpan(start: 1))) { error in
            XCTAssertEqual("\(error)", "\(photo): a still image has no time span (--start/--end are for videos)")
        }
    }

    func testTimesAreSecondsOrClockTimes() {
        XCTAssertEqual(TimeSpan.parseTime("90"), 90)
        XCTAssertEqual(TimeSpan.parseTime("1.5"), 1.5)
        XCTAssertEqual(TimeSpan.parseTime("1:30"), 90)
        XCTAssertEqual(TimeSpan.parseTime("1:02:03.25"), 3723.25)
        for bad in ["", "-1", "1:60", "1:2:3:4", "abc", "1e3", "inf", "nan", ".", "1..2", ":30", "0x10"] {
            XCTAssertNil(TimeSpan.parseTime(bad), bad)
        }
    }
}
