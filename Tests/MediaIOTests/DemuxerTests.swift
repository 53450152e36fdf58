import FaceCore
@testable import MediaIO
import TestSupport
import XCTest

/// Opening inputs: the good ones report their streams, the bad ones get one plain line.
final class DemuxerTests: XCTestCase {
    func testFindsVideoAndAudioStreams() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mkv")
        try Clips.pattern(clip, seconds: 1, rate: 10)
        let demuxer = try Demuxer(path: clip)
        XCTAssertEqual(demuxer.audioStreamIndexes.count, 1)
        XCTAssertFalse(demuxer.isStillImage)
        XCTAssertEqual(demuxer.estimatedFrameCount, 10)
        XCTAssertNil(demuxer.streamOrientation)
    }

    func testBadInputsGetPlainMessages() throws {
        let folder = try TemporaryFolder()
        let text = folder.file("notes.mp4")
        try "not a video".write(toFile: text, atomically: false, encoding: .utf8)
        let empty = folder.file("empty.mp4")
        try Data().write(to: URL(fileURLWithPath: empty))
        let audio = folder.file("tone.m4a")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "sine", "-t", "0.5", audio])

        let cases: [(String, String)] = [
            (folder.file("missing.mp4"), "no such file"), (folder.path, "is a directory"),
            (text, "not a media file"), (empty, "file is empty"), (audio, "has no video stream"),
        ]
        for (path, expected) in cases {
            XCTAssertThrowsError(try Demuxer(path: path), path) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(expected), message)
                XCTAssertTrue(message.hasPrefix(path), "the message names the file: \(message)")
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }
}
