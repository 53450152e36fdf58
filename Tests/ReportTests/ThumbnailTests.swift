import FaceCore
import Foundation
import MediaIO
@testable import Report
import TestSupport
import XCTest

/// Seeking to single frames, JPEG crops, and the CSV/video match check.
final class ThumbnailTests: XCTestCase {
    /// A 3 s clip, red then green then blue (one second each), a keyframe every second.
    private func colourClip(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("rgb.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=black:size=64x48:rate=25:duration=3", "-vf",
                          "format=rgb24,geq=r='if(lt(T,1),255,0)':g='if(between(T,1,1.99),255,0)':b='if(gte(T,2),255,0)'",
                          "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", path])
        return path
    }

    private func colour(_ image: BGRAImage) -> String {
        let p = image.pixel(x: image.width / 2, y: image.height / 2)
        if p.r > 180 && p.g < 80 && p.b < 80 { return "red" }
        if p.g > 180 && p.r < 80 && p.b < 80 { return "green" }
        if p.b > 180 && p.r < 80 && p.g < 80 { return "blue" }
        return "other \(p)"
    }

    func testSeeksForwardAndBackward() throws {
        let folder = try TemporaryFolder()
        let seeker = try FrameSeeker(path: try colourClip(folder))
        var seen: [String] = []
        for time in [2.5, 0.5, 1.5, 1.6, 2.96, 9.0] {
            seen.append(colour(try XCTUnwrap(seeker.uprightImage(at: time))))
        }
        XCTAssertEqual(seen, ["blue", "red", "green", "green", "blue", "blue"], "past the end gives the last frame")
        XCTAssertLessThan(seeker.decodedFrames, 75 * 2, "seeks, not a decode from the start for each frame")
        XCTAssertEqual(seeker.seeks, 3, "2.5 and 0.5 and 9.0 seek; 1.5, 1.6 and 2.96 are under 2 s ahead and decode on")
    }

    func testTheSameFrameAskedTwiceIsTheSameFrame() throws {
        let folder = try TemporaryFolder()
        let seeker = try FrameSeeker(path: try colourClip(folder))
        // Frame 24 (0.96 s) is the last red one; a CSV's six decimals can put its time a hair later.
        var seen: [String] = []
        for time in [0.96, 0.96, 0.960001, 0.959999] {
            seen.append(colour(try XCTUnwrap(seeker.uprightImage(at: time))))
        }
        XCTAssertEqual(seen, ["red", "red", "red", "red"])
        XCTAssertEqual(seeker.seeks, 1, "the frame decoded last is given again without a seek")
        XCTAssertEqual(colour(try XCTUnwrap(seeker.uprightImage(at: 1.0))), "green", "the next frame still comes after it")
    }

    func testJPEGCropsOfBestFrames() throws {
        let folder = try TemporaryFolder()
        let clip = try colourClip(folder)
        let rows = [FaceRow(frame: 12, time: 0.48, trackID: 1, box: Rect(x: 20, y: 10, width: 20, height: 20), confidence: 1),
                    FaceRow(frame: 60, time: 2.4, trackID: 2, box: Rect(x: 20, y: 10, width: 20, height: 20), confidence: 1)]
        let model = TrackModel(FaceRows(rows: rows))
        let thumbnails = try Thumbnails.make(for: model.tracks, video: clip)
        XCTAssertEqual(Set(thumbnails.keys), [1, 2])
        for thumbnail in thumbnails.values {
            XCTAssertEqual(Array(thumbnail.small.prefix(2)), [0xFF, 0xD8], "a JPEG file")
            XCTAssertEqual(Array(thumbnail.large.suffix(2)), [0xFF, 0xD9])
            // Decodes back to the size asked for.
            let path = folder.file("t.jpg")
            try thumbnail.large.write(to: URL(fileURLWithPath: path))
            let (image, _) = try ImageLoader.load(path: path)
            XCTAssertEqual([image.width, image.height], [Thumbnails.largeSide, Thumbnails.largeSide])
        }
        let path = folder.file("t2.jpg")
        try thumbnails[2]!.small.write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(colour(try ImageLoader.load(path: path).image), "blue", "track 2's frame is in the blue second")
    }

    func testMismatchedVideoIsRefused() throws {
        let video = VideoFacts(width: 64, height: 48, frames: 75, duration: 3, framesPerSecond: 25)
        let fits = FaceRows(path: "t.csv", rows: [FaceRow(frame: 74, time: 2.96, trackID: 1, box: Rect(x: 0, y: 0, width: 5, height: 5),
                                                          confidence: 1)])
        XCTAssertNoThrow(try Thumbnails.checkMatch(fits, video: video, videoPath: "v.mp4"))
        let long = FaceRows(path: "t.csv", rows: [FaceRow(frame: 99, time: 3.96, trackID: 1, box: Rect(x: 0, y: 0, width: 5, height: 5),
                                                          confidence: 1)])
        XCTAssertThrowsError(try Thumbnails.checkMatch(long, video: video, videoPath: "v.mp4")) { error in
            XCTAssertEqual("\(error)", "t.csv: does not match the video v.mp4: the CSV lists frame 99, the video has 75 frames")
        }
        let late = FaceRows(path: "t.csv", rows: [FaceRow(frame: 10, time: 30, trackID: 1, box: Rect(x: 0, y: 0, width: 5, height: 5),
                                                          confidence: 1)])
        XCTAssertThrowsError(try Thumbnails.checkMatch(late, video: video, videoPath: "v.mp4")) { error in
            XCTAssertTrue("\(error)".contains("the CSV reaches 30.000 s, the video lasts 3.000 s"), "\(error)")
        }
    }
}
