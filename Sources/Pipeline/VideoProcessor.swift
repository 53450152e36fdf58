internal import CFFmpeg
import Dispatch
import FaceCore
import Foundation
import Identity
import MediaIO
import Scheduling
import Tracking

/// Runs one video through the stages decode → analyse → track → render → encode.
///
/// Threads: the caller's thread demuxes, decodes and plans each frame's keyframe and tile; a serial
/// queue plans the crops; `lanes` serial queues (one per core, `LanePool`: free lanes take the
/// earliest frame's work) analyse and render different frames at once, each with its own
/// converter and detector; frames go back into order before the serial tracking stage and again
/// before the serial encoding stage. A semaphore bounds the frames in flight, so memory stays flat whatever the clip length. The
/// first error cancels every stage; a stop request (SIGINT) stops reading and finishes the
/// container with the frames done so far.
final class VideoProcessor {
    /// What the processor is given: the opened input and the parts of each stage.
    struct Parts {
        /// The input's path, for messages and to refuse outputs that name it.
        var input: String
        /// The opened input (opened once, by the job).
        var demuxer: Demuxer
        /// Lanes and decoder threads; 0 means one per core.
        var threads: Int
        /// The overlaid video to write and how to encode it; `nil` skips encoding.
        var video: (path: String, settings: EncoderSettings)?
        var detection = DetectionPlan(every: 1)
        /// Makes one detector per lane; `nil` runs without detection.
        var detectorFactory: (() throws -> FaceDetector?)?
        /// Makes one analyzer per lane (the face mesh for attributes); `nil` skips analysis.
        var analyzerFactory: (() throws -> FaceAnalyzer?)?
        var tracker: Tracker?
        /// Re-identification, known people and --keep/--only (`IdentityResolver`); nil for none.
        var identity: (settings: IdentitySettings, model: FaceEmbeddingModel, known: KnownPeople?)?
        /// Frames the tracking stage holds before writing one (`LookaheadBuffer`).
        var lookahead = 1
        /// Smoothing of the written rows for drawing; `nil` draws the measured boxes.
        var smoothing: TrackSmoothing?
        /// How the reader plans each frame's detection: sized for the detector's geometry; with a
        /// scheduler configuration (adaptive detection), from the tracker's forecasts.
        var planning: (geometry: DetectionGeometry, scheduler: SchedulerConfiguration?)?
        /// Per-track decisions after the tracker (attribute hysteresis).
        var faceProcessor: TrackedFaceProcessor?
        var renderer: FrameRenderer?
        /// Whether the renderer also gets the faces that are not written (to anonymise them).
        var rendersHidden = false
        /// Written in frame order by the tracking stage; finished by the caller.
        var outputs: [FrameOutput] = []
        /// Stops reading new frames when set; frames already read are finished.
        var stop = StopSignal()
    }

    private let parts: Parts
    private let lanes: [Lane]
    private let state: RunState
    /// The tracker's totals and the written tracks' summaries, after `run`.
    private(set) var tracking = TrackingSummary(confirmedTrackCount: 0, longestTrackFrameCount: 0,
                                                droppedDetectionCount: 0, tracks: [])

    /// Prepares a run; detectors and analyzers are created here so a missing model fails before
    /// any frame is read.
    init(_ parts: Parts) throws {
        self.parts = parts
        state = RunState(stop: parts.stop)
        let count = parts.threads > 0 ? parts.threads : max(1, ProcessInfo.processInfo.activeProcessorCount)
        lanes = try (0..<count).map { i in
            Lane(index: i, detector: try parts.detectorFactory?(), analyzer: try parts.analyzerFactory?())
        }
    }

    /// The stages' CPU time, the rest of the process's as codec threads, and peak memory.
    private func statistics(since before: ProcessUsage) -> RunStatistics {
        let after = ProcessUsage.now()
        let seconds = state.clock.seconds
        var stages = RunStage.allCases.map { RunStatistics.Stage(name: $0.name, cpuSeconds: seconds[$0.rawValue]) }
        let cpu = after.cpuSeconds - before.cpuSeconds
        stages.append(RunStatistics.Stage(name: "codec threads", cpuSeconds: max(0, cpu - seconds.reduce(0, +))))
        return RunStatistics(stages: stages, cpuSeconds: cpu, peakMemoryBytes: after.peakMemoryBytes)
    }

    /// Processes the whole input and returns the summary. Throws on the first error; the caller
    /// finishes `parts.outputs` only after a successful return. `progress` gets the count of
    /// finished frames after each frame.
    func run(progress: (@Sendable (Int) -> Void)? = nil) throws -> ProcessingSummary {
        let started = Date()
        let usageBefore = ProcessUsage.now()
        let demuxer = parts.demuxer
        let decoder = try VideoDecoder(demuxer: demuxer, threads: parts.threads)
        let pool = ImagePool()
        let group = DispatchGroup()
        // Frame n's crops are planned from the tracks after frame n - lanes, its keyframe and tile
        // from those after frame n - 4 lanes, so they start early; neither depends on timing.
        let adaptive = parts.planning?.scheduler != nil
        let board = adaptive ? ForecastBoard(lanes: lanes.count, reach: 4 * lanes.count) : nil
        let lanePool = LanePool(lanes)
        // Two frames per lane (or those between a tracked frame and the frame planned from it),
        // two in the serial stages, those the look-ahead holds and those waiting for their shot verdict.
        let inFlight = DispatchSemaphore(value: max(lanes.count * 2, board?.reach ?? 0) + 2 + parts.lookahead
                                         + ShotMarker(framesPerSecond: demuxer.framesPerSecond).lookahead)
        let backfill = try parts.planning.flatMap { planning in
            try adaptive ? parts.detectorFactory?().map { Backfill(detector: $0, geometry: planning.geometry, pool: pool) } : nil
        }
        var planner = parts.planning.map {
            DetectionPlanner(geometry: $0.geometry, configuration: $0.scheduler ?? SchedulerConfiguration(), board: board)
        }
        let crops = board.flatMap { board in
            parts.planning.map { CropPlanning(geometry: $0.geometry, configuration: $0.scheduler ?? SchedulerConfiguration(),
                                              board: board, state: state) }
        }

        // The stages, built back to front.
        let finish = FinishStage(pool: pool, state: state, inFlight: inFlight, group: group, progress: progress)
        let encode = try parts.video.map { video in
            try EncodeStage(path: video.path, input: parts.input, encoderSettings: video.settings, threads: parts.threads, demuxer: demuxer,
                            decoder: decoder, state: state, next: finish)
        }
        let render: FrameStage = encode.map {
            RenderStage(lanes: lanePool, renderer: parts.renderer, drawsHidden: parts.rendersHidden, encoder: $0, pool: pool,
                        state: state)
        } ?? finish
        let resolver = try parts.identity.map { try IdentityResolver(settings: $0.settings, model: $0.model, known: $0.known, pool: pool) }
        let track = TrackingStage(tracker: parts.tracker, faceProcessor: parts.faceProcessor, outputs: parts.outputs,
                                  lookahead: parts.lookahead, smoothing: parts.smoothing, board: board, backfill: backfill,
                                  identity: resolver, state: state, next: render)
        let analyse = AnalysisStage(lanes: lanePool, detection: parts.detection, pool: pool, state: state, next: track)

        var reader = FrameReader(demuxer: demuxer, decoder: decoder)
        var summary = ProcessingSummary()
        // Frames wait a third of a second on the reader's thread for their shot-boundary verdict.
        var shots = ShotMarker(framesPerSecond: demuxer.framesPerSecond)
        var boundarySincePlan = false
        func submit(_ job: FrameJob) {
            boundarySincePlan = boundarySincePlan || job.boundary != nil
            if job.index % parts.detection.every == 0 {
                let cut = boundarySincePlan
                boundarySincePlan = false
                state.attempt {
                    job.plan = try state.clock.time(.detect) { try planner?.plan(for: job, cut: cut, failed: { state.isFailed }) }
                }
                if let crops {
                    analyse.acceptAhead(job)
                    return crops.plan(job, then: analyse)
                }
            }
            analyse.accept(job)
        }
        do {
            summary.readError = try reader.read(state, audio: { encode?.acceptCopied($0) }) { job in
                inFlight.wait()
                group.enter()
                state.clock.time(.detect) { shots.add(job, release: submit) }
            }
        } catch {
            state.fail(MediaError.failed(parts.input, error as? FFmpegError ?? FFmpegError(-1, "\(error)")))
        }
        shots.finish(release: submit)
        track.endOfInput(frames: reader.frameCount)
        group.wait()
        // Drains the encoder's queue (audio copies are not counted by the group), so on an error
        // nothing still holds the muxer and its temporary file goes with it.
        encode?.queue.sync {}
        var failure = state.firstError
        if failure == nil, reader.frameCount == 0 {
            failure = state.stopRequested ? MediaError.stoppedBeforeFirstFrame(parts.input) : MediaError.noFrames(parts.input)
        }
        if let failure {
            encode?.queue.sync { encode?.discard() }
            throw failure
        }
        if let encode { try encode.queue.sync { try encode.finish() } }

        summary.frames = state.finishedFrames
        summary.faces = state.faceCount
        let written = track.statistics.withLock { $0 }
        tracking = TrackingSummary(confirmedTrackCount: parts.tracker?.confirmedTrackCount ?? 0,
                                   longestTrackFrameCount: written.longestTrackFrameCount,
                                   droppedDetectionCount: parts.tracker?.droppedDetectionCount ?? 0, tracks: written.summaries)
        if let resolver {
            for i in tracking.tracks.indices {
                guard let person = resolver.personOfIdentity[tracking.tracks[i].id] else { continue }
                tracking.tracks[i].person = person.name
                tracking.tracks[i].personDistance = Double(person.distance)
            }
            // Tracks that continued an earlier one share its ID: count the IDs.
            tracking.confirmedTrackCount = tracking.tracks.count
            summary.embeddedFaces = resolver.embeddingCount
        }
        summary.tracks = tracking.confirmedTrackCount
        summary.longestTrack = tracking.longestTrackFrameCount
        let passes = analyse.counts.withLock { $0 }
        summary.detectionPasses = DetectionPassCounts(full: passes.full, crops: passes.crops, tiles: passes.tiles)
        summary.fallbacks = passes.fallbacks
        summary.shotCuts = shots.count
        summary.seconds = Date().timeIntervalSince(started)
        summary.damagedPackets = decoder.damagedPackets + (encode?.damagedAudioPackets ?? 0)
        if summary.readError == nil, !state.stopRequested, let ended = demuxer.endedEarly(framesRead: reader.frameCount, lastFrameTime: state.lastTime) {
            summary.readError = ended
        }
        summary.corruptFrames = decoder.corruptFrames
        summary.invalidDetections = lanes.reduce(0) { $0 + $1.invalidDetections }
        summary.interrupted = state.stopRequested
        summary.lastTime = state.lastTime
        summary.statistics = statistics(since: usageBefore)
        return summary
    }
}
