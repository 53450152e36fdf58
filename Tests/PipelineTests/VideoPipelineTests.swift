import Detection
import FaceCore
import MediaIO
@testable import Pipeline
import Tracking
import Synchronization
import TestSupport
import XCTest

/// A test double: reports one face whose x position encodes the frame it saw, read from the
/// frame's pixels, so the test can tell whether results came back in frame order.
private final class FrameNumberDetector: FaceDetector {
    let name = "test"
    func detect(in image: BGRAImage) throws -> [FaceObservation] {
        // The fixture's frames are grey levels 0, 8, 16... so the level gives the frame number.
        let level = Double(image.pixel(x: image.width / 2, y: image.height / 2).g)
        var faces = [FaceObservation(bounds: Rect(x: (level / 8).rounded(), y: 1, width: 30, height: 30), confidence: 0.9),
                     FaceObservation(bounds: Rect(x: 0, y: 0, width: 2, height: 2), confidence: 0.5),
                     FaceObservation(bounds: Rect(x: .nan, y: 0, width: 2, height: 2), confidence: 0.99)]
        faces.append(FaceObservation(bounds: Rect(x: 5, y: 5, width: -1, height: 2), confidence: 0.7))
        return faces
    }
}

/// Runs `job` with a test's detector, which sees each frame whole at its own size.
@discardableResult
func runPipeline(_ job: FaceTrackJob, detector: @escaping () -> FaceDetector, outputs: [FrameOutput] = []) throws
    -> ProcessingSummary {
    var builder = PipelineBuilder(job: job, input: try VideoReader(path: job.input, threads: job.threads), outputs: outputs)
    builder.makeDetector = detector
    builder.geometry = nil
    var pipeline = try builder.build()
    return try pipeline.run().summary
}

/// A detector whose every call throws `Broken`.
final class FailingDetector: FaceDetector {
    struct Broken: Error {}
    let name = "failing"
    func detect(in image: BGRAImage) throws -> [FaceObservation] { throw Broken() }
}

final class VideoPipelineTests: XCTestCase {
    /// 30 frames whose grey level rises by 8 a frame, losslessly coded in RGB.
    private func makeRamp(_ folder: TemporaryFolder) throws -> String {
        let clip = folder.file("ramp.mkv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=black:size=64x48:rate=10", "-frames:v", "30",
                          "-vf", "format=rgb24,geq=r='8*N':g='8*N':b='8*N',format=bgr0", "-c:v", "ffv1", clip])
        return clip
    }

    /// The ramp, one face a frame kept, tracks from the first detection at or above 0.8.
    private func rampJob(_ clip: String, threads: Int, detectEvery: Int = 1) -> FaceTrackJob {
        var job = FaceTrackJob(input: clip, threads: threads)
        job.detection.maxFaces = 1
        job.detection.detectEvery = detectEvery
        job.detection.threshold = 0.8
        job.tracking.minHits = 1
        return job
    }

    func testResultsComeBackInFrameOrderAndInvalidBoxesAreDropped() throws {
        let folder = try TemporaryFolder()
        let csv = folder.file("tracks.csv")
        let writer = try TrackCSVWriter(path: csv)
        let summary = try runPipeline(rampJob(try makeRamp(folder), threads: 3), detector: { FrameNumberDetector() }, outputs: [writer])
        try writer.finish()
        XCTAssertEqual(summary.frames, 30)
        XCTAssertEqual(summary.faces, 30, "max-faces 1 keeps one face a frame")
        XCTAssertEqual(summary.invalidDetections, 60, "the NaN and the negative box of each frame")
        XCTAssertEqual(summary.tracks, 1)
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst()
        let xs: [Substring] = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[3] }
        XCTAssertEqual(xs.map(String.init), (0..<30).map { "\($0).00" }, "each row's box comes from its own frame")
    }

    /// `--stats`' memory parts come from the run's counters: the ramp's frames are 64x48 BGR0
    /// (12288 bytes), the frames in flight never pass the limit, and the parts fit in the peak.
    func testMemoryPartsCountTheFramesInFlightAndFitInThePeak() throws {
        let folder = try TemporaryFolder()
        let summary = try runPipeline(rampJob(try makeRamp(folder), threads: 2), detector: { FrameNumberDetector() })
        let statistics = try XCTUnwrap(summary.statistics)
        let parts = try XCTUnwrap(statistics.memory)
        let frames = try XCTUnwrap(parts.first { $0.name == "frames in flight" })
        let held = try XCTUnwrap(Int(frames.detail.prefix { $0 != " " }), frames.detail)
        XCTAssertGreaterThan(held, 1, "lanes and the look-ahead hold several frames at once: \(frames.detail)")
        XCTAssertLessThanOrEqual(held, 30)
        XCTAssertEqual(frames.bytes, held * 64 * 48 * 4, frames.detail)
        let limit = try XCTUnwrap(Int(frames.detail.split(separator: "limit ").last?.dropLast() ?? ""), frames.detail)
        XCTAssertLessThanOrEqual(held, limit)
        let pictures = try XCTUnwrap(parts.first { $0.name == "BGRA pictures" })
        XCTAssertGreaterThanOrEqual(pictures.bytes, 64 * 48 * 4, "the test detector sees whole BGRA frames")
        XCTAssertEqual(pictures.bytes % (64 * 48 * 4), 0, "only whole frames of the ramp are made")
        XCTAssertLessThan(parts.reduce(0) { $0 + $1.bytes }, statistics.peakMemoryBytes)
        XCTAssertTrue(statistics.table(frames: 30, seconds: 1).contains("memory: peak"))
    }

    func testDetectEveryRunsTheDetectorOnEveryNthFrame() throws {
        let folder = try TemporaryFolder()
        let csv = folder.file("tracks.csv")
        let writer = try TrackCSVWriter(path: csv)
        try runPipeline(rampJob(try makeRamp(folder), threads: 2, detectEvery: 4), detector: { FrameNumberDetector() },
                        outputs: [writer])
        try writer.finish()
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        XCTAssertEqual(rows.filter { $0[19] == "detected" }.map { Int($0[0])! }, Array(stride(from: 0, to: 30, by: 4)))
        XCTAssertEqual(rows.filter { $0[19] == "predicted" }.map { Int($0[0])! }, (0..<28).filter { $0 % 4 != 0 },
                       "frames between detections are predicted, and written because the face is found again")
    }

    func testDetectorErrorStopsTheRunAndLeavesNoOutput() throws {
        let folder = try TemporaryFolder()
        let clip = try makeRamp(folder)
        let job = FaceTrackJob(input: clip, outputs: JobOutputs(video: folder.file("out.mp4")))
        var outputs: [FrameOutput] = [try TrackCSVWriter(path: folder.file("t.csv"))]
        XCTAssertThrowsError(try runPipeline(job, detector: { FailingDetector() }, outputs: outputs)) {
            XCTAssertTrue($0 is FailingDetector.Broken)
        }
        outputs = []
        XCTAssertEqual(folder.contents(), ["ramp.mkv"])
    }
}

final class FaceTrackJobTests: XCTestCase {
    func testJobWritesEveryOutputAndReportsProgress() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-frames:v", "12", "-pix_fmt", "yuv420p", clip])
        var job = FaceTrackJob(input: clip, detection: DetectionSettings(detector: .none))
        job.outputs = JobOutputs(video: folder.file("out.mkv"), csv: folder.file("t.csv"), mot: folder.file("t.mot"),
                                 tracksSummary: folder.file("t.json"))
        let seen = Mutex<[Int]>([])
        let summary = try job.run(progress: { progress in seen.withLock { $0.append(progress.frames) } })
        XCTAssertEqual(summary.frames, 12)
        XCTAssertEqual(seen.withLock { $0 }, Array(1...12), "one call per finished frame")
        XCTAssertEqual(folder.contents(), ["clip.mp4", "out.mkv", "t.csv", "t.json", "t.mot"])
        XCTAssertEqual(try Tools.videoFrameTimes(folder.file("out.mkv")).count, 12)
    }

    func testStopSignalEndsTheRunWithCompleteOutputs() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-frames:v", "40", "-pix_fmt", "yuv420p", clip])
        let stop = StopSignal()
        let job = FaceTrackJob(input: clip, outputs: JobOutputs(csv: folder.file("t.csv")),
                               detection: DetectionSettings(detector: .none), threads: 1)
        let summary = try job.run(progress: { if $0.frames == 5 { stop.stop() } }, stop: stop)
        XCTAssertTrue(summary.interrupted)
        XCTAssertGreaterThanOrEqual(summary.frames, 5)
        XCTAssertLessThan(summary.frames, 30, "one lane holds at most four frames in flight")
        let rows = try String(contentsOfFile: folder.file("t.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.first, Substring((TrackCSVWriter.columns + ["shot"]).joined(separator: ",")))
        XCTAssertEqual(folder.contents(), ["clip.mp4", "t.csv"])
    }

    func testSettingsOutOfRangeAreRejectedNamingTheOption() {
        var job = FaceTrackJob(input: "x.mp4")
        job.detection.threshold = 1.5
        XCTAssertThrowsError(try job.validate()) { XCTAssertTrue("\($0)".contains("--threshold"), "\($0)") }
        job = FaceTrackJob(input: "x.mp4", detection: DetectionSettings(detector: .centerface(CenterFaceSettings(inputSize: 8))))
        XCTAssertThrowsError(try job.validate()) { XCTAssertTrue("\($0)".contains("--input-size"), "\($0)") }
        job = FaceTrackJob(input: "x.mp4", encoder: EncoderSettings(codec: "vp9"))
        XCTAssertThrowsError(try job.validate()) { XCTAssertTrue("\($0)".contains("--codec"), "\($0)") }
        XCTAssertNoThrow(try FaceTrackJob(input: "x.mp4").validate())
    }

    func testSecondPassAsksTheDetectorForHalfTheThreshold() {
        let settings = TrackingSettings()
        XCTAssertEqual(settings.detectorThreshold(reportingAt: 0.6), 0.3)
        let configuration = settings.configuration(framesPerSecond: 25, threshold: 0.6)
        XCTAssertEqual(configuration.highThreshold, 0.6)
        XCTAssertEqual(configuration.lowThreshold, 0.3)
        XCTAssertEqual(configuration.maxAge, 25, "one second of video")
        let single = TrackingSettings(maxAge: 7, secondPass: false)
        XCTAssertEqual(single.detectorThreshold(reportingAt: 0.6), 0.6)
        XCTAssertEqual(single.configuration(framesPerSecond: nil, threshold: 0.6).lowThreshold, 0.6)
        XCTAssertEqual(single.configuration(framesPerSecond: nil, threshold: 0.6).maxAge, 7)
    }
}
