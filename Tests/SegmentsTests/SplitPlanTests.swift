import FaceCore
import Foundation
import MediaIO
import Segments
import TestSupport
import XCTest

/// `split-plan`: key frames found from packet headers, segments cut at them with an overlap, the
/// plan file read back and checked.
final class SplitPlanTests: XCTestCase {
    /// 100 frames at 25 fps with a key frame every 10 frames exactly (no scene-cut key frames).
    static func clip(_ folder: TemporaryFolder, frames: Int = 100, keyint: Int = 10) throws -> String {
        let path = folder.file("keys.mp4")
        try Clips.pattern(path, seconds: Double(frames) / 25,
                          extra: ["-x264-params", "keyint=\(keyint):min-keyint=\(keyint):scenecut=0"])
        return path
    }

    func testIndexFindsEveryKeyFrameWithoutDecoding() throws {
        let folder = try TemporaryFolder()
        let path = try Self.clip(folder)
        let index = try KeyframeIndex.scan(path: path)
        XCTAssertEqual(index.frames, 100)
        XCTAssertEqual(index.keyframes.map(\.frame), Array(stride(from: 0, to: 100, by: 10)))
        XCTAssertEqual(index.timeBase.seconds(index.keyframes[3].pts - index.firstPTS), 1.2, accuracy: 1e-9)
        XCTAssertEqual(index.duration, 4, accuracy: 1e-9)
    }

    func testSegmentsStartAtKeyFramesCoverEveryFrameOnceAndOverlap() throws {
        let folder = try TemporaryFolder()
        let index = try KeyframeIndex.scan(path: try Self.clip(folder))
        let plan = try SplitPlan(index: index, cut: .segments(3), overlap: 1)
        // Even cuts at 33.3 and 66.7 move to the nearest key frames.
        XCTAssertEqual(plan.segments.map(\.startFrame), [0, 30, 70])
        XCTAssertEqual(plan.segments.map(\.endFrame), [30, 70, 100])
        // The overlap starts at the last key frame at least 1 s (25 frames) before the start.
        XCTAssertEqual(plan.segments.map(\.decodeFrame), [0, 0, 40])
        XCTAssertEqual(plan.segments.map(\.overlapFrames), [0, 30, 30])
        XCTAssertEqual(plan.segments[2].startTime, 2.8, accuracy: 1e-9)
        XCTAssertEqual(plan.segments[2].endTime, 4, accuracy: 1e-9)

        let seconds = try SplitPlan(index: index, cut: .seconds(2), overlap: 0)
        XCTAssertEqual(seconds.segments.map(\.startFrame), [0, 50])
        XCTAssertEqual(seconds.segments.map(\.decodeFrame), [0, 50])
        // More segments than key frames: one per key frame at most.
        XCTAssertEqual(try SplitPlan(index: index, cut: .segments(40)).segments.count, 10)
    }

    func testPlanFileRoundTripsAndBadLinesAreNamed() throws {
        let folder = try TemporaryFolder()
        let plan = try SplitPlan(index: try KeyframeIndex.scan(path: try Self.clip(folder)), cut: .segments(3), overlap: 1)
        let path = folder.file("keys.plan.jsonl")
        let text = try plan.text()
        XCTAssertEqual(text.split(separator: "\n").count, 4)
        XCTAssertTrue(text.contains("\"decode_frame\":40"), text)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try SplitPlan(path: path), plan)

        var lines = text.split(separator: "\n").map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: "\"start_frame\":30", with: "\"start_frame\":31")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SplitPlan(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path): line 3: segment 1 does not start where the one before ends")
        }
        try (text.split(separator: "\n").dropLast().joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SplitPlan(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path): line 1: the header says 3 segments, the file has 2")
        }
        try "{\"frames\":3}\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SplitPlan(path: path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path): line 1: not the first line of a split plan"), "\(error)")
        }
    }

    func testRefusesAFileThatChangedSinceThePlan() throws {
        let folder = try TemporaryFolder()
        let path = try Self.clip(folder)
        let plan = try SplitPlan(index: try KeyframeIndex.scan(path: path), cut: .segments(2))
        XCTAssertNoThrow(try plan.checkInput(path))
        try Clips.pattern(path, seconds: 3)
        XCTAssertThrowsError(try plan.checkInput(path)) { error in
            XCTAssertTrue("\(error)".contains("not the file the plan was made for"), "\(error)")
        }
    }

    func testReadingASpanGivesTheWholeFilesFramesAndNumbers() throws {
        let folder = try TemporaryFolder()
        let path = try Self.clip(folder)
        let index = try KeyframeIndex.scan(path: path)
        func frames(_ reader: VideoReader) throws -> [(Int, Int64)] {
            var result: [(Int, Int64)] = []
            while let item = try reader.next() { if case .frame(let frame) = item { result.append((frame.index, frame.pts)) } }
            return result
        }
        let whole = try frames(VideoReader(path: path))
        let key = index.keyframes[4]
        let span = ReadSpan(keyframePTS: key.pts, keyframeDTS: key.dts, firstIndex: key.frame, frameCount: 25)
        let part = try frames(VideoReader(path: path, span: span))
        XCTAssertEqual(part.map(\.0), Array(40..<65))
        XCTAssertEqual(part.map(\.1), whole[40..<65].map(\.1))
        // A key frame the file does not have: a plan made for another file.
        let wrong = ReadSpan(keyframePTS: key.pts + 1, keyframeDTS: nil, firstIndex: 40, frameCount: 5)
        XCTAssertThrowsError(try VideoReader(path: path, span: wrong)) { error in
            XCTAssertTrue("\(error)".contains("no key frame at timestamp"), "\(error)")
        }
    }

    func testArraySpecListsRanges() {
        XCTAssertEqual(SegmentError.arraySpec([7, 1, 8, 9, 4]), "1,4,7-9")
        XCTAssertEqual(SegmentError.missingSegments("p", [1], count: 3).description.prefix(60),
                       "p: segment 1 of 3 has not finished (never run, failed or kil")
    }
}
