import Dispatch
import FaceCore
import Foundation
import MediaIO
@testable import Pipeline
import Rendering
import Synchronization
import TestSupport
import Tracking
import XCTest

/// Decoded frames of a small grey ramp (level 8 x frame number), read with `VideoReader`: what the
/// reader hands the first stage.
private func rampFrames(_ count: Int, in folder: TemporaryFolder, size: String = "64x48") throws -> [FrameJob] {
    let clip = folder.file("ramp-\(count)-\(size).mkv")
    try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=black:size=\(size):rate=10", "-frames:v", "\(count)",
                      "-vf", "format=rgb24,geq=r='8*N':g='8*N':b='8*N',format=yuv420p", "-c:v", "ffv1", clip])
    let reader = try VideoReader(path: clip)
    var jobs: [FrameJob] = []
    while let item = try reader.next() {
        if case .frame(let decoded) = item { jobs.append(FrameJob(decoded)) }
    }
    return jobs
}

/// Frames a stage handed on, from any thread.
private final class Collected: Sendable {
    private let jobs = Mutex<[FrameJob]>([])
    private let arrived = DispatchGroup()

    init(expecting count: Int) { for _ in 0..<count { arrived.enter() } }

    var handoff: FrameHandoff {
        { job in
            self.jobs.withLock { $0.append(job) }
            self.arrived.leave()
        }
    }

    /// The frames, once all expected ones came.
    func all() -> [FrameJob] {
        XCTAssertEqual(arrived.wait(timeout: .now() + 30), .success)
        return jobs.withLock { $0 }
    }
}

/// A detector that finds a face whose x is the frame's grey level / 8 (its number), one smaller
/// face, and one NaN box.
private final class LevelDetector: FaceDetector {
    let name = "level"
    func detect(in image: BGRAImage) throws -> [FaceObservation] {
        let level = Double(image.pixel(x: image.width / 2, y: image.height / 2).g)
        return [FaceObservation(bounds: Rect(x: (level / 8).rounded(), y: 2, width: 20, height: 20), confidence: 0.9),
                FaceObservation(bounds: Rect(x: 40, y: 20, width: 4, height: 4), confidence: 0.6),
                FaceObservation(bounds: Rect(x: .nan, y: 0, width: 4, height: 4), confidence: 0.99)]
    }
}

/// An output that keeps the rows written, frame by frame.
private final class RowsOutput: FrameOutput {
    var frames: [(frame: Int, faces: [TrackedFace])] = []
    func write(frame: Int, time: Double, faces: [TrackedFace]) throws { frames.append((frame, faces)) }
    func finish() throws {}
}

/// Each stage on its own, fed frames by the test: no `VideoPipeline`, no other stage.
final class StageTests: XCTestCase {
    func testAnalysisDetectsOnEveryNthFrameKeepsTheBestFacesAndHandsFramesOnInOrder() throws {
        let folder = try TemporaryFolder()
        let frames = try rampFrames(12, in: folder)
        let lanes = LanePool((0..<3).map { _ in Lane(detector: LevelDetector(), analyzer: nil) }, label: "test.lane")
        let collected = Collected(expecting: frames.count)
        let stage = AnalysisStage(lanes: lanes, every: 3, filter: DetectionFilter(maxFaces: 1), pool: ImagePool(),
                                  state: RunState(), clock: StageClock(), next: collected.handoff)
        for job in frames { stage.accept(job) }
        let out = collected.all()
        XCTAssertEqual(out.map(\.index), Array(0..<12), "handed on in frame order")
        for job in out {
            if job.index % 3 == 0 {
                XCTAssertEqual(job.detections?.map(\.bounds.x), [Double(job.index)], "the best face of its own frame")
            } else {
                XCTAssertNil(job.detections, "no detection on frame \(job.index)")
            }
        }
        var summary = ProcessingSummary()
        stage.summarize(into: &summary)
        XCTAssertEqual(summary.detectionPasses, DetectionPassCounts(full: 4))
        XCTAssertEqual(summary.invalidDetections, 4, "one NaN box per detected frame")
    }

    func testAnalysisAfterAFailureStillHandsEveryFrameOn() throws {
        let folder = try TemporaryFolder()
        let frames = try rampFrames(6, in: folder)
        let state = RunState()
        let collected = Collected(expecting: frames.count)
        let stage = AnalysisStage(lanes: LanePool([Lane(detector: FailingDetector(), analyzer: nil)], label: "test.lane"), every: 1,
                                  filter: DetectionFilter(), pool: ImagePool(), state: state, clock: StageClock(),
                                  next: collected.handoff)
        for job in frames { stage.accept(job) }
        XCTAssertEqual(collected.all().count, 6)
        XCTAssertTrue(state.firstError is FailingDetector.Broken)
    }

    func testTrackingConfirmsWritesAfterTheLookaheadAndSummarises() throws {
        let folder = try TemporaryFolder()
        var frames = try rampFrames(8, in: folder)
        for i in frames.indices {
            frames[i].detections = [FaceObservation(bounds: Rect(x: 10 + Double(i), y: 10, width: 20, height: 20), confidence: 0.9)]
        }
        let output = RowsOutput()
        let handedOn = Mutex<[Int]>([])
        let stage = TrackingStage(tracker: Tracker(rowsOnly: TrackerConfiguration(minHits: 3)), faceProcessor: nil,
                                  outputs: [output], lookahead: 3, smoothing: nil, board: nil, backfill: nil,
                                  state: RunState(), clock: StageClock(), next: { job in handedOn.withLock { $0.append(job.index) } })
        for job in frames.prefix(5) { stage.accept(job) }
        XCTAssertEqual(handedOn.withLock { $0 }, [0, 1], "frames leave the look-ahead three frames later")
        for job in frames.dropFirst(5) { stage.accept(job) }
        stage.endOfInput(frames: frames.count)
        XCTAssertEqual(handedOn.withLock { $0 }, Array(0..<8))
        XCTAssertEqual(output.frames.map(\.frame), Array(0..<8))
        XCTAssertEqual(output.frames.map { $0.faces.first?.trackID }, Array(repeating: 1, count: 8),
                       "the track's first two frames get the ID it earned on the third")
        var summary = ProcessingSummary()
        let tracks = stage.summarize(into: &summary)
        XCTAssertEqual(summary.faces, 8)
        XCTAssertEqual(summary.tracks, 1)
        XCTAssertEqual(summary.longestTrack, 8)
        XCTAssertEqual(tracks.tracks.map(\.frameCount), [8])
    }

    /// The shot marker tells each frame whether the next one starts a shot (or the input ends after
    /// it), so a steady face's crop is not skipped where no detection would follow it.
    func testTheShotMarkerMarksTheFrameBeforeACutAndTheLastFrame() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("cut.mkv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10:d=2", "-f", "lavfi", "-i",
                          "smptebars=size=160x90:rate=10:d=2", "-filter_complex", "[0:v][1:v]concat=n=2:v=1[v]",
                          "-map", "[v]", "-c:v", "ffv1", clip])
        let reader = try VideoReader(path: clip)
        var marker = ShotMarker(framesPerSecond: 10)
        var released: [FrameJob] = []
        while let item = try reader.next() {
            if case .frame(let decoded) = item { marker.add(FrameJob(decoded)) { released.append($0) } }
        }
        marker.finish { released.append($0) }
        XCTAssertEqual(released.map(\.index), Array(0..<40), "every frame once, in order")
        XCTAssertEqual(released.filter { $0.boundary != nil }.map(\.index), [20])
        XCTAssertEqual(released.filter(\.endsShot).map(\.index), [19, 39], "before the cut, and the last frame")
    }

    func testEncodingKeepsEveryFrameWithIncreasingTimestamps() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("odd.mkv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=65x49:rate=10", "-frames:v", "5", "-pix_fmt", "yuv420p",
                          "-c:v", "ffv1", clip])
        let reader = try VideoReader(path: clip)
        var frames: [FrameJob] = []
        while let item = try reader.next() { if case .frame(let decoded) = item { frames.append(FrameJob(decoded)) } }
        let writer = try VideoWriter(path: folder.file("out.mkv"), inputs: [clip], settings: EncoderSettings(preset: "ultrafast"),
                                     threads: 1, source: reader)
        let finished = Mutex(0)
        let stage = EncodeStage(writer: writer, state: RunState(), clock: StageClock(), next: { _ in finished.withLock { $0 += 1 } })
        // The last two frames share a timestamp: the writer moves the second on.
        for job in frames { stage.accept(job) }
        stage.accept(frames[4])
        try stage.finish()
        XCTAssertEqual(finished.withLock { $0 }, 6)
        let times = try Tools.videoFrameTimes(folder.file("out.mkv"))
        XCTAssertEqual(times.count, 6)
        XCTAssertEqual(times, times.sorted())
        XCTAssertEqual(Set(times).count, 6, "timestamps strictly increase")
        let size = try Tools.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                      folder.file("out.mkv")])
        XCTAssertEqual(size.trimmingCharacters(in: .whitespacesAndNewlines), "64,48", "odd sizes cropped to even ones")
    }

    func testRenderDrawsOnTheDecodedPlanesAndHandsFramesOnInOrder() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("grey.mkv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:size=96x64:rate=10", "-frames:v", "4", "-pix_fmt", "yuv420p",
                          "-c:v", "ffv1", clip])
        let reader = try VideoReader(path: clip)
        var frames: [FrameJob] = []
        while let item = try reader.next() { if case .frame(let decoded) = item { frames.append(FrameJob(decoded)) } }
        let box = FaceObservation(bounds: Rect(x: 20, y: 10, width: 40, height: 40), confidence: 0.9)
        for i in frames.indices where i % 2 == 0 { frames[i].faces = [TrackedFace(observation: box, trackID: 1)] }
        let writer = try VideoWriter(path: folder.file("out.mkv"), inputs: [clip], settings: EncoderSettings(), threads: 1,
                                     source: reader)
        let collected = Collected(expecting: frames.count)
        let stage = RenderStage(lanes: LanePool([Lane(detector: nil, analyzer: nil)], label: "test.lane"),
                                renderer: OverlayRenderer(configuration: OverlayConfiguration(kinds: [.boxes])),
                                drawsHidden: false, frames: writer.framePool, pool: ImagePool(), state: RunState(),
                                clock: StageClock(), next: collected.handoff)
        for job in frames { stage.accept(job) }
        let out = collected.all()
        XCTAssertEqual(out.map(\.index), [0, 1, 2, 3])
        for job in out {
            let image = try XCTUnwrap(job.frame.yuvImage)
            let edge = image.planes.0.load(fromByteOffset: 30 * image.strides.0 + 20, as: UInt8.self)
            let inside = image.planes.0.load(fromByteOffset: 30 * image.strides.0 + 40, as: UInt8.self)
            XCTAssertNil(job.output, "drawn on the decoded frame, which the encoder takes as it is")
            if job.faces.isEmpty {
                XCTAssertEqual(edge, inside, "frame \(job.index) has nothing drawn")
            } else {
                XCTAssertNotEqual(edge, inside, "frame \(job.index) has the box's left edge")
            }
        }
    }

    func testFinishCountsFramesAndReleasesTheirSlots() throws {
        let folder = try TemporaryFolder()
        let frames = try rampFrames(3, in: folder)
        let limit = InFlightLimit(2)
        let progress = Mutex<[Int]>([])
        let stage = FinishStage(pool: ImagePool(), inFlight: limit, progress: { done in progress.withLock { $0.append(done) } })
        for job in frames {
            limit.admit()
            stage.accept(job)
        }
        limit.waitForAll()
        var summary = ProcessingSummary()
        stage.summarize(into: &summary)
        XCTAssertEqual(summary.frames, 3)
        XCTAssertEqual(summary.lastTime ?? -1, 0.2, accuracy: 1e-9)
        XCTAssertEqual(progress.withLock { $0 }, [1, 2, 3])
    }
}

/// The executor's parts, which know nothing of frames or faces.
final class ExecutorTests: XCTestCase {
    func testInFlightLimitBlocksUntilAnItemLeaves() {
        let limit = InFlightLimit(2)
        limit.admit()
        limit.admit()
        let third = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            limit.admit()
            third.signal()
        }
        XCTAssertEqual(third.wait(timeout: .now() + 0.2), .timedOut, "a third item waits while two are in flight")
        limit.release()
        XCTAssertEqual(third.wait(timeout: .now() + 10), .success)
        limit.release()
        limit.release()
        limit.waitForAll()
    }

    func testQueueBoundValueChangesInSubmissionOrderOnItsQueue() {
        let bound = QueueBound([Int](), queue: DispatchQueue(label: "test.bound"))
        for i in 0..<100 { bound.async { $0.append(i) } }
        XCTAssertEqual(bound.sync { $0 }, Array(0..<100))
    }

    func testInOrderLanesHandItemsOnInIndexOrderAndSkipWorkAfterAFailure() {
        struct Broken: Error {}
        let run = RunState()
        let out = Mutex<[Int]>([])
        let done = DispatchGroup()
        let lanes = InOrderLanes<Int, Int>(pool: LanePool([0, 1, 2], label: "test.lane"), run: run) { item in
            out.withLock { $0.append(item) }
            done.leave()
        }
        for index in 0..<20 {
            done.enter()
            lanes.submit(index, index: index) { item, _ in
                usleep(UInt32(19 - index) * 200)  // later items finish first
                if index == 5 { throw Broken() }
                item *= 10
            }
        }
        done.wait()
        XCTAssertEqual(out.withLock { $0 }.count, 20)
        XCTAssertEqual(out.withLock { $0 }.prefix(5), [0, 10, 20, 30, 40])
        XCTAssertTrue(run.firstError is Broken)
    }

    func testRunStateKeepsTheFirstErrorAndSkipsLaterWork() {
        struct First: Error {}
        struct Second: Error {}
        let run = RunState()
        run.attempt { throw First() }
        var ran = false
        run.attempt { ran = true; throw Second() }
        XCTAssertFalse(ran)
        XCTAssertTrue(run.firstError is First)
    }
}
