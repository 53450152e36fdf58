import CFFmpeg
import FaceCore
import Foundation
import MediaIO

/// Runs one video through the stages decode → BGRA → detect → track → render → convert → encode/mux.
///
/// Threads: the caller's thread demuxes and decodes; `lanes` serial queues (one per core) convert,
/// detect and render different frames at once, each with its own converter and detector; results go
/// back into frame order before the serial tracking queue and again before the serial encoding
/// queue. A semaphore bounds the frames in flight, so memory stays flat whatever the clip length.
/// The first error cancels every stage; `requestStop()` (SIGINT) stops reading and finishes the
/// container with the frames done so far.
public final class VideoProcessor: @unchecked Sendable {
    /// Makes one detector per lane; returning `nil` (or passing no factory) runs without detection.
    public typealias DetectorFactory = @Sendable () throws -> FaceDetector?
    /// Called on the tracking queue for every frame in order, after the CSV row is written
    /// (for extra outputs such as MOT files). A throw stops the run.
    public typealias FrameObserver = (_ frame: Int, _ time: Double, _ faces: [TrackedFace]) throws -> Void

    private let options: ProcessingOptions
    private let tracker: FaceTracker?
    private let renderer: FrameRenderer?
    private let observer: FrameObserver?
    private let lanes: [Lane]
    private let state = RunState()

    /// Prepares a run; detectors are created here so a missing model fails before any frame is read.
    public init(options: ProcessingOptions, detectorFactory: DetectorFactory?, tracker: FaceTracker? = nil,
                renderer: FrameRenderer? = nil, observer: FrameObserver? = nil) throws {
        self.options = options
        self.tracker = tracker
        self.renderer = renderer
        self.observer = observer
        let count = options.threads > 0 ? options.threads : max(1, ProcessInfo.processInfo.activeProcessorCount)
        lanes = try (0..<count).map { i in Lane(index: i, detector: try detectorFactory?()) }
    }

    /// Stops reading new frames; frames already read are finished and the outputs closed properly.
    /// Safe to call from any thread (a signal handler's queue).
    public func requestStop() { state.requestStop() }

    /// Processes the whole input and returns the summary. Throws on the first error, leaving no output behind.
    public func run(progress: Bool = false) throws -> ProcessingSummary {
        let started = Date()
        let demuxer = try Demuxer(path: options.input)
        let decoder = try VideoDecoder(demuxer: demuxer, threads: options.threads)
        let streamOrientation = demuxer.streamOrientation
        let csv = try options.csvPath.map { try TrackCSVWriter(path: $0, inputs: [options.input]) }
        let sink = try options.output.map { try EncodingSink(path: $0, demuxer: demuxer, decoder: decoder, options: options) }

        let reporter = ProgressReporter(total: demuxer.estimatedFrameCount, enabled: progress && isatty(2) != 0) { [state] in
            state.finishedFrames
        }
        reporter.start()
        defer { reporter.stop() }

        let timeBase = demuxer.videoTimeBase
        let inFlight = DispatchSemaphore(value: lanes.count * 2 + 2)
        let group = DispatchGroup()
        let trackQueue = DispatchQueue(label: "facetrack.track")
        let imagePool = ImagePool()
        var summary = ProcessingSummary()

        // Stage ends, wired back to front.
        let finish: @Sendable (FrameJob) -> Void = { [state] job in
            job.recycle(into: imagePool)
            state.frameFinished(time: job.time)
            inFlight.signal()
            group.leave()
        }
        let rendered = Reorderer<FrameJob> { job in
            guard let sink else { return finish(job) }
            sink.queue.async {
                if !self.state.isFailed {
                    do { try sink.encode(job) } catch { self.state.fail(error) }
                }
                finish(job)
            }
        }
        let analysed = Reorderer<FrameJob> { job in
            trackQueue.async {
                if !self.state.isFailed {
                    do {
                        try self.track(job)
                        try csv?.write(frame: job.index, time: job.time, faces: job.faces)
                        try self.observer?(job.index, job.time, job.faces)
                    } catch { self.state.fail(error) }
                }
                guard sink != nil else { return finish(job) }
                self.lane(for: job).queue.async {
                    if !self.state.isFailed {
                        do { try self.render(job, lane: self.lane(for: job), sink: sink!, pool: imagePool) } catch { self.state.fail(error) }
                    }
                    rendered.submit(job, index: job.index)
                }
            }
        }

        // Demux and decode on this thread.
        var index = 0
        var lastPTS = Int64.min
        let frameDuration = demuxer.frameRate.map { av_rescale_q(1, av_inv_q($0), timeBase) } ?? 1
        let submit = { (frame: Frame) in
            inFlight.wait()
            var pts = frame.pointer.pointee.best_effort_timestamp
            if pts == ft_nopts_value() { pts = lastPTS == Int64.min ? 0 : lastPTS + max(1, frameDuration) }
            lastPTS = pts
            let orientation = streamOrientation
                ?? frame.displayMatrix.map { m in m.withUnsafeBufferPointer { Demuxer.orientation(displayMatrix: $0.baseAddress!) } }
                ?? .up
            let job = FrameJob(index: index, frame: frame, pts: pts, time: Double(pts) * av_q2d(timeBase), orientation: orientation)
            index += 1
            group.enter()
            self.lane(for: job).queue.async {
                if !self.state.isFailed {
                    do { try self.analyse(job, lane: self.lane(for: job), pool: imagePool) } catch { self.state.fail(error) }
                }
                analysed.submit(job, index: job.index)
            }
        }
        let packet = Packet()
        do {
            reading: while !state.shouldStopReading {
                let more: Bool
                do {
                    more = try demuxer.readPacket(into: packet)
                } catch let error as FFmpegError {
                    summary.readError = "stopped reading after \(index) frames: \(error.message)"
                    break reading
                }
                guard more else { break }
                if packet.streamIndex == demuxer.videoStreamIndex {
                    try decoder.send(packet)
                    while true {
                        let frame = Frame()
                        guard try decoder.receive(into: frame) else { break }
                        submit(frame)
                    }
                } else if let sink {
                    let copy = Packet()
                    av_packet_move_ref(copy.pointer, packet.pointer)
                    sink.queue.async {
                        guard !self.state.isFailed else { return }
                        do { try sink.writeCopied(copy) } catch { self.state.fail(error) }
                    }
                }
            }
            if !state.isFailed {
                try decoder.send(nil)
                while true {
                    let frame = Frame()
                    guard try decoder.receive(into: frame) else { break }
                    submit(frame)
                }
            }
        } catch {
            state.fail(MediaError.failed(options.input, error as? FFmpegError ?? FFmpegError(-1, "\(error)")))
        }
        group.wait()
        if let error = state.firstError { throw error }
        if index == 0 { throw MediaError.noFrames(options.input) }

        try sink?.queue.sync { try sink?.finish() }
        try csv?.finish()

        summary.frames = state.finishedFrames
        summary.faces = state.faceCount
        summary.tracks = tracker?.confirmedTrackCount ?? 0
        summary.longestTrack = tracker?.longestTrackFrameCount ?? 0
        summary.seconds = Date().timeIntervalSince(started)
        summary.damagedPackets = decoder.damagedPackets + (sink?.damagedAudioPackets ?? 0)
        if summary.readError == nil, !state.stopRequested, let ended = demuxer.endedEarly(framesRead: index) {
            summary.readError = ended
        }
        summary.corruptFrames = decoder.corruptFrames
        summary.invalidDetections = lanes.reduce(0) { $0 + $1.invalidDetections }
        summary.interrupted = state.stopRequested
        summary.lastTime = state.lastTime
        return summary
    }

    private func lane(for job: FrameJob) -> Lane { lanes[job.index % lanes.count] }

    /// Lane stage: BGRA conversion (only when something will look at the pixels) and detection.
    private func analyse(_ job: FrameJob, lane: Lane, pool: ImagePool) throws {
        guard let detector = lane.detector, job.index % max(1, options.detectEvery) == 0 else { return }
        let upright = try job.uprightImage(converter: lane.converter, pool: pool)
        var faces = try detector.detect(in: upright)
        let before = faces.count
        faces.removeAll { !$0.isValid }
        lane.invalidDetections += before - faces.count
        faces.sort { $0.confidence > $1.confidence }
        if let limit = options.maxFaces, faces.count > limit { faces.removeLast(faces.count - limit) }
        job.detections = faces
    }

    /// Serial stage: tracking (or plain per-frame faces without a tracker).
    private func track(_ job: FrameJob) throws {
        if let tracker {
            job.faces = tracker.update(frame: job.index, time: job.time, detections: job.detections)
        } else {
            job.faces = (job.detections ?? []).map { TrackedFace(observation: $0, trackID: nil) }
        }
        state.addFaces(job.faces.count)
    }

    /// Lane stage: draw the overlays upright, turn the picture back to its stored orientation and
    /// convert it to the encoder's format. A frame with nothing to draw is encoded as decoded.
    private func render(_ job: FrameJob, lane: Lane, sink: EncodingSink, pool: ImagePool) throws {
        let draws = renderer != nil && !job.faces.isEmpty
        guard draws || !sink.acceptsDirectly(job.frame) else { return }
        let upright = try job.uprightImage(converter: lane.converter, pool: pool)
        if draws { renderer?.render(job.faces, on: upright) }
        guard let stored = job.storedImage() else { return }
        let output = try sink.outputFrame()
        try lane.converter.convertFromBGRA(stored, into: output)
        job.output = output
    }
}

/// One worker: a serial queue with its own converter and detector.
final class Lane: @unchecked Sendable {
    let queue: DispatchQueue
    let converter = PixelConverter()
    let detector: FaceDetector?
    /// Only touched on `queue`; read after the run.
    var invalidDetections = 0

    init(index: Int, detector: FaceDetector?) {
        queue = DispatchQueue(label: "facetrack.lane.\(index)")
        self.detector = detector
    }
}

/// Shared run state: first error, stop request, counters. Thread-safe.
final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?
    private var stop = false
    private var finished = 0
    private var faces = 0
    private var time: Double?

    var firstError: Error? { lock.withLock { error } }
    var isFailed: Bool { lock.withLock { error != nil } }
    var stopRequested: Bool { lock.withLock { stop } }
    var shouldStopReading: Bool { lock.withLock { stop || error != nil } }
    var finishedFrames: Int { lock.withLock { finished } }
    var faceCount: Int { lock.withLock { faces } }
    var lastTime: Double? { lock.withLock { time } }

    func fail(_ newError: Error) { lock.withLock { if error == nil { error = newError } } }
    func requestStop() { lock.withLock { stop = true } }
    func addFaces(_ count: Int) { lock.withLock { faces += count } }
    func frameFinished(time frameTime: Double) {
        lock.withLock {
            finished += 1
            time = max(time ?? frameTime, frameTime)
        }
    }
}
