import FaceCore
import MediaIO
@testable import Pipeline
import TestSupport
import XCTest

/// A test double: reports one face whose x position encodes the frame it saw, read from the
/// frame's pixels, so the test can tell whether results came back in frame order.
private final class FrameNumberDetector: FaceDetector {
    let name = "test"
    func detect(in image: BGRAImage) throws -> [FaceObservation] {
        // The fixture's frames are grey levels 0, 8, 16... so the level gives the frame number.
        let level = Double(image.pixel(x: image.width / 2, y: image.height / 2).g)
        var faces = [FaceObservation(bounds: Rect(x: (level / 8).rounded(), y: 1, width: 4, height: 4), confidence: 0.9),
                     FaceObservation(bounds: Rect(x: 0, y: 0, width: 2, height: 2), confidence: 0.5),
                     FaceObservation(bounds: Rect(x: .nan, y: 0, width: 2, height: 2), confidence: 0.99)]
        faces.append(FaceObservation(bounds: Rect(x: 5, y: 5, width: -1, height: 2), confidence: 0.7))
        return faces
    }
}

/// Counts calls and checks they come in frame order with the detector's output.
private final class RecordingTracker: FaceTracker {
    var frames: [Int] = []
    var detectedFrames: [Int] = []
    func update(frame: Int, time: Double, detections: [FaceObservation]?) -> [TrackedFace] {
        frames.append(frame)
        if detections != nil { detectedFrames.append(frame) }
        return (detections ?? []).map { TrackedFace(observation: $0, trackID: 1) }
    }
    var confirmedTrackCount: Int { 1 }
    var longestTrackFrameCount: Int { frames.count }
}

final class VideoProcessorTests: XCTestCase {
    /// 30 frames whose grey level rises by 8 a frame, losslessly coded in RGB.
    private func makeRamp(_ folder: TemporaryFolder) throws -> String {
        let clip = folder.file("ramp.mkv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=black:size=64x48:rate=10", "-frames:v", "30",
                          "-vf", "format=rgb24,geq=r='8*N':g='8*N':b='8*N',format=bgr0", "-c:v", "ffv1", clip])
        return clip
    }

    func testResultsComeBackInFrameOrderAndInvalidBoxesAreDropped() throws {
        let folder = try TemporaryFolder()
        let clip = try makeRamp(folder)
        let csv = folder.file("tracks.csv")
        let tracker = RecordingTracker()
        let processor = try VideoProcessor(options: ProcessingOptions(input: clip, csvPath: csv, threads: 3, maxFaces: 1),
                                           detectorFactory: { () -> FaceDetector? in FrameNumberDetector() }, tracker: tracker)
        let summary = try processor.run()
        XCTAssertEqual(summary.frames, 30)
        XCTAssertEqual(summary.faces, 30, "max-faces 1 keeps one face a frame")
        XCTAssertEqual(summary.invalidDetections, 60, "the NaN and the negative box of each frame")
        XCTAssertEqual(tracker.frames, Array(0..<30))
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst()
        let xs: [Substring] = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[3] }
        XCTAssertEqual(xs.map(String.init), (0..<30).map { "\($0).00" }, "each row's box comes from its own frame")
    }

    func testDetectEveryRunsTheDetectorOnEveryNthFrame() throws {
        let folder = try TemporaryFolder()
        let clip = try makeRamp(folder)
        let tracker = RecordingTracker()
        let processor = try VideoProcessor(options: ProcessingOptions(input: clip, threads: 2, detectEvery: 4),
                                           detectorFactory: { () -> FaceDetector? in FrameNumberDetector() }, tracker: tracker)
        _ = try processor.run()
        XCTAssertEqual(tracker.frames.count, 30)
        XCTAssertEqual(tracker.detectedFrames, Array(stride(from: 0, to: 30, by: 4)))
    }

    func testDetectorErrorStopsTheRunAndLeavesNoOutput() throws {
        struct Broken: Error {}
        final class FailingDetector: FaceDetector {
            let name = "failing"
            func detect(in image: BGRAImage) throws -> [FaceObservation] { throw Broken() }
        }
        let folder = try TemporaryFolder()
        let clip = try makeRamp(folder)
        let processor = try VideoProcessor(
            options: ProcessingOptions(input: clip, output: folder.file("out.mp4"), csvPath: folder.file("t.csv")),
            detectorFactory: { () -> FaceDetector? in FailingDetector() })
        XCTAssertThrowsError(try processor.run()) { XCTAssertTrue($0 is Broken) }
        XCTAssertEqual(folder.contents(), ["ramp.mkv"])
    }
}
