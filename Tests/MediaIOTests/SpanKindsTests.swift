import FaceCore
@testable import MediaIO
import TestSupport
import XCTest

/// The reader's two kinds of part of a file side by side: a split plan's `ReadSpan` (frame-exact
/// from a key frame, no audio, the original's timestamps kept so parts join by stream copy) and a
/// `TimeSpan` (`--start`/`--end`: with its audio, the output's clock starting at the span).
final class SpanKindsTests: XCTestCase {
    func testReadSpanKeepsTheOriginalsClockAndATimeSpanStartsAtZero() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("keys.mp4")
        try Clips.pattern(path, seconds: 4, extra: ["-x264-params", "keyint=25:min-keyint=25:scenecut=0"])
        let key = try XCTUnwrap(try KeyframeIndex.scan(path: path).keyframes.first { $0.frame == 50 })
        func read(_ reader: VideoReader) throws -> (frames: [(index: Int, position: Int, pts: Int64)], audio: Int) {
            var frames: [(Int, Int, Int64)] = [], audio = 0
            while let item = try reader.next() {
                switch item {
                case .frame(let f): frames.append((f.index, f.position, f.pts))
                case .audio: audio += 1
                }
            }
            return (frames, audio)
        }
        let segment = try VideoReader(path: path, span: ReadSpan(keyframePTS: key.pts, keyframeDTS: key.dts, firstIndex: 50,
                                                                  frameCount: 25))
        let time = try VideoReader(path: path, span: TimeSpan(start: 2, end: 3))
        XCTAssertEqual(segment.firstIndex, 50)
        XCTAssertEqual(segment.outputOrigin, 0, "a segment's part keeps the original's timestamps")
        XCTAssertEqual(time.firstIndex, 0)
        XCTAssertEqual(time.outputOrigin, time.startTime + 2, accuracy: 1e-9, "a time span's output starts at 0")
        let a = try read(segment), b = try read(time)
        XCTAssertEqual(a.frames.map(\.index), Array(50..<75))
        XCTAssertEqual(b.frames.map(\.index), Array(50..<75))
        XCTAssertEqual(a.frames.map(\.pts), b.frames.map(\.pts), "the same frames, with the same timestamps")
        XCTAssertEqual(a.frames.map(\.position), Array(0..<25))
        XCTAssertEqual(b.frames.map(\.position), Array(0..<25))
        XCTAssertEqual(a.audio, 0, "a segment copies no audio (stitch copies the original's once)")
        XCTAssertGreaterThan(b.audio, 0, "a time span keeps its audio")
    }
}
