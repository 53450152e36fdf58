import Attributes
import Detection
import Dispatch
import FaceCore
import Foundation
import Identity
import MediaIO
import Rendering
import Scheduling
import Tracking

/// Makes one run's stages straight from the job (`FaceTrackJob.run`): detectors, analyzers and
/// the encoder are created here, so a missing model or an unwritable output fails before any frame
/// is read. Its seams (`makeDetector`, `geometry`, `renderer`) default to what the job says; tests
/// put their own detector or renderer there.
struct PipelineBuilder {
    /// The job whose settings make the stages.
    let job: FaceTrackJob
    /// The opened input.
    let input: VideoReader
    /// Written in frame order by the tracking stage; finished by the caller.
    var outputs: [FrameOutput]
    /// Re-identification, known people and --keep/--only (`IdentityResolver`); `nil` for none.
    var identity: (settings: IdentitySettings, model: IdentityModels, known: KnownPeople?)?
    /// Where the identity stage keeps the embeddings it computes, by track ID; `nil` keeps none.
    var galleries: IdentityGalleries?
    /// Stops reading new frames when set; frames already read are finished.
    var stop = StopSignal()
    /// Called with the count of finished frames after each frame.
    var progress: (@Sendable (Int) -> Void)?
    /// Makes one detector per lane, and one for the look-back; `nil` runs without detection.
    var makeDetector: () throws -> FaceDetector?
    /// How each frame's passes are sized and planned; `nil` runs the detector on the whole frame at
    /// its own size (no planning, no shot cuts).
    var geometry: DetectionGeometry?
    /// What draws on the output video; `nil` encodes the frames as decoded.
    var renderer: FrameRenderer?

    init(job: FaceTrackJob, input: VideoReader, outputs: [FrameOutput] = []) {
        self.job = job
        self.input = input
        self.outputs = outputs
        let detection = job.detection
        let threshold = job.tracking.detectorThreshold(reportingAt: detection.effectiveThreshold, masks: job.overlay.anonymize != nil)
        // One inference per lane: the lanes already keep every core busy, and splitting a frame's
        // inference as well put twice as many threads as cores to work (the runtime's workers spin
        // between steps). A still image is one frame: its inference gets every core.
        let threads = input.isStillImage ? job.laneCount : 1
        makeDetector = { try detection.makeDetector(threshold: threshold, threads: threads) }
        geometry = detection.detector.geometry
        renderer = job.overlay.draws ? OverlayRenderer(configuration: job.overlay) : nil
    }

    /// The stages, wired back to front.
    func build() throws -> VideoPipeline {
        let job = self.job
        NetworkBytes.resetPeaks()
        let fps = input.framesPerSecond ?? VideoTiming.assumedFramesPerSecond
        let adaptive = geometry != nil && job.detection.mode == .adaptive
        // The look-ahead window: long enough to confirm a track from its first detection (or to
        // cover --detect-every), and with adaptive detection the time within which a face missed by
        // the whole-frame passes is found and looked for backwards: half a second (the keyframes'
        // longest interval), a second where tiles run, since a small face can take that long to be
        // found by them (samples/hd-small-face with BlazeFace: written from frame 15 of 50 with half
        // a second, from frame 3 with a second), and with --anonymize (a face entering at the edge;
        // every frame it shows before must be masked). Where no tiles run, a longer window only
        // moved identity decisions (docs/scheduling.md, "A second of look-back where tiles run").
        // Without a detector there is nothing to decide later, and held frames only cost memory.
        let tiled = input.pictureSize.map { geometry?.usesTiles(width: $0.width, height: $0.height) ?? false } ?? true
        let lookBack = adaptive ? Int((job.overlay.anonymize != nil || tiled ? fps : fps / 2).rounded()) : 0
        let lookahead = job.detection.detector == .none && geometry != nil
            ? 0 : max(job.tracking.minHits + 2, job.detection.detectEvery + 1) + lookBack
        var trackerConfiguration = job.tracking.configuration(
            framesPerSecond: input.framesPerSecond, threshold: job.detection.effectiveThreshold,
            defaultTrackThreshold: job.detection.detector.defaultTrackThreshold)
        // Predictions are reported for as long as the look-ahead can confirm them; rows are
        // smoothed and counted after the look-ahead decided them.
        trackerConfiguration.reportMissedFrames = lookahead
        trackerConfiguration.smoothing = false
        trackerConfiguration.holdsMasks = job.overlay.anonymize != nil
        trackerConfiguration.maskThreshold = job.tracking.maskThreshold(reportingAt: job.detection.effectiveThreshold)
        let tracker = Tracker(rowsOnly: trackerConfiguration)

        let state = RunState(stop: stop)
        let clock = StageClock()
        let pool = ImagePool()
        let analyzer: () throws -> FaceAnalyzer? = {
            job.analysesFaces ? try FaceMeshAnalyzer(models: job.detection.models, selection: job.attributes) : nil
        }
        let lanes = LanePool(try (0..<job.laneCount).map { _ in Lane(detector: try makeDetector(), analyzer: try analyzer()) },
                             label: "facetrack.lane")
        // Frame n's crops are planned from the tracks after frame n - 2, its keyframe and tile from
        // those after frame n - 8, so they start early; neither depends on timing, nor on the
        // thread count (the lag used to be the lane count: --threads changed the CSV).
        let board = adaptive ? ForecastBoard(lanes: ForecastBoard.planningLag, reach: 4 * ForecastBoard.planningLag) : nil
        // Two frames per lane (or those between a tracked frame and the frame planned from it),
        // two in the serial stages, those the look-ahead holds and those waiting for their shot verdict.
        let inFlight = InFlightLimit(max(job.laneCount * 2, board?.reach ?? 0) + 2 + lookahead
                                     + ShotMarker(framesPerSecond: input.framesPerSecond).lookahead)
        var scheduler = adaptive ? SchedulerConfiguration(framesPerSecond: fps) : SchedulerConfiguration()
        if job.overlay.anonymize != nil { scheduler.anonymize(maxAge: trackerConfiguration.maxAge) }
        if tiled { scheduler.stretchKeyframesWhenQuiet(lookBack: lookBack) }
        scheduler.skipsSteadyCrops = job.overlay.anonymize == nil && !job.analysesFaces && job.detection.detectEvery <= 1
        let planner = geometry.map { DetectionPlanner(geometry: $0, configuration: scheduler, board: board) }
        let crops = board.flatMap { board in
            geometry.map { CropPlanning(geometry: $0, configuration: scheduler, board: board, state: state, clock: clock) }
        }
        let backfill = try board.flatMap { _ in
            try geometry.flatMap { geometry in try makeDetector().map { Backfill(detector: $0, geometry: geometry, pool: pool, clock: clock) } }
        }

        let finish = FinishStage(pool: pool, inFlight: inFlight, progress: progress)
        var encode: QueueBound<EncodeStage>?
        var render: FrameHandoff = finish.accept
        // Stages order frames by their place in this run (`FrameJob.index`, from 0); a segment's
        // frames are numbered from its first (`FrameJob.number`), and --detect-every counts by
        // those numbers so that its detections fall on the frames a whole run's do.
        let phase = input.firstIndex
        if let path = job.outputs.video, !StillImageWriter.isStillImage(path) {
            // A segment's part: its own frames only, no audio, groups of pictures closed, so the parts join by copy.
            let writer = try VideoWriter(path: path, inputs: [job.input], settings: job.encoder, threads: job.threads, source: input,
                                         copiesAudio: job.segment == nil, closedGOPs: job.segment != nil)
            let encoding = QueueBound(EncodeStage(writer: writer, state: state, clock: clock, next: finish.accept),
                                      queue: DispatchQueue(label: "facetrack.encode"))
            let stage = RenderStage(lanes: lanes, renderer: renderer, drawsHidden: job.overlay.anonymize != nil,
                                    frames: writer.framePool, pool: pool, state: state, clock: clock,
                                    first: job.segment.map { $0.encoded.lowerBound - phase } ?? 0,
                                    next: { job in encoding.async { $0.accept(job) } })
            render = stage.accept
            if let encoded = job.segment?.encoded {
                render = { job in encoded.contains(job.number) ? stage.accept(job) : finish.accept(job) }
            }
            encode = encoding
        }
        let resolver = try identity.map {
            try IdentityResolver(settings: $0.settings, model: $0.model, known: $0.known, pool: pool, galleries: galleries,
                                 threads: min(2, job.laneCount))
        }
        let tracking = QueueBound(
            TrackingStage(tracker: tracker, faceProcessor: job.attributes.isEmpty ? nil : AttributeStabilizer(), outputs: outputs,
                          lookahead: lookahead,
                          smoothing: job.tracking.smoothing ? TrackSmoothing(configuration: tracker.configuration) : nil,
                          board: board, backfill: backfill, identity: resolver, listsMasks: job.overlay.anonymize != nil,
                          maskScale: job.overlay.maskScale,
                          state: state, clock: clock, next: render),
            queue: DispatchQueue(label: "facetrack.track"))
        let analysis = AnalysisStage(lanes: lanes, every: job.detection.detectEvery,
                                     filter: DetectionFilter(maxFaces: job.detection.maxFaces), pool: pool, state: state,
                                     clock: clock, phase: phase,
                                     closeUp: geometry.map { (CloseUpRule(confidentScore: trackerConfiguration.birthThreshold ?? trackerConfiguration.highThreshold), $0) },
                                     next: { job in tracking.async { $0.accept(job) } })
        return VideoPipeline(input: input, state: state, clock: clock, inFlight: inFlight, window: lookahead, pool: pool,
                             lanes: lanes, planner: planner,
                             crops: crops, analysis: analysis, tracking: tracking, encode: encode, finish: finish,
                             detectEvery: max(1, job.detection.detectEvery), detectPhase: phase)
    }
}

/// One run's stages, made by `PipelineBuilder`, and the loop that feeds them.
///
/// Threads: the caller's thread demuxes, decodes, marks shot boundaries (`ShotMarker`, which holds
/// frames a third of a second for its verdict) and plans each frame's keyframe and tile; a serial
/// queue plans the crops; the lanes (one serial queue per core, `LanePool`: free lanes take the
/// earliest frame's work) analyse and render different frames at once, each with its own
/// converter and detector; frames go back into order before the serial tracking stage and again
/// before the serial encoding stage. `InFlightLimit` bounds the frames in flight, so memory stays
/// flat whatever the clip length. The first error fails the run (`RunState`): every stage skips
/// its work but hands frames on; a stop request (SIGINT) stops reading and finishes the container
/// with the frames done so far.
struct VideoPipeline {
    let input: VideoReader
    let state: RunState
    let clock: StageClock
    let inFlight: InFlightLimit
    /// Frames the look-ahead window holds (`--stats`).
    let window: Int
    /// The run's BGRA pictures (`--stats`).
    let pool: ImagePool
    let lanes: LanePool<Lane>
    /// Used on the caller's thread only, in frame order.
    var planner: DetectionPlanner?
    let crops: CropPlanning?
    let analysis: AnalysisStage
    let tracking: QueueBound<TrackingStage>
    let encode: QueueBound<EncodeStage>?
    let finish: FinishStage
    let detectEvery: Int
    /// Added to a frame's `index` before `detectEvery` counts (see `PipelineBuilder.build`).
    let detectPhase: Int
    /// A shot boundary came since the last planned frame.
    var boundarySincePlan = false

    /// Processes the whole input and returns the run's summary, each stage adding its part, and
    /// the written tracks' summaries. Throws on the first error; the caller finishes the outputs
    /// only after a successful return.
    mutating func run() throws -> (summary: ProcessingSummary, tracks: TrackingSummary) {
        let started = Date()
        let usageBefore = ProcessUsage.now()
        // Frames wait a third of a second on the reader's thread for their shot-boundary verdict.
        var shots = ShotMarker(framesPerSecond: input.framesPerSecond)
        var frameBytes = 0
        do {
            // A stop still takes the frames the decoder holds; a failure does not.
            while !state.isFailed {
                if state.stopRequested { input.stopReading() }
                guard let item = try clock.time(.decode, { try input.next() }) else { break }
                switch item {
                case .frame(let decoded):
                    frameBytes = max(frameBytes, decoded.frame.pictureBytes)
                    inFlight.admit()
                    clock.time(.detect) { shots.add(FrameJob(decoded)) { start($0) } }
                case .audio(let packet):
                    encode?.async { $0.acceptAudio(packet) }
                }
            }
        } catch {
            state.fail(MediaError.failed(input.path, error as? FFmpegError ?? FFmpegError(-1, "\(error)")))
        }
        // Every admitted frame goes on, with the verdicts the detector can still give.
        shots.finish { start($0) }
        let frames = input.frameCount
        tracking.async { $0.endOfInput(frames: frames) }
        inFlight.waitForAll()
        // A block may hand its frame on before it ends: drain the lanes and the serial stages, so
        // nothing still holds an output (a failed run's temporary files go when their writers do).
        lanes.drain()
        tracking.sync { _ in }
        encode?.sync { _ in }
        var failure = state.firstError
        if failure == nil, frames == 0 {
            failure = state.stopRequested ? MediaError.stoppedBeforeFirstFrame(input.path)
                : input.requestedSpan.map { MediaError.emptySpan(input.path, span: $0) } ?? MediaError.noFrames(input.path)
        }
        if let failure {
            encode?.sync { $0.discard() }
            throw failure
        }
        try encode?.sync { try $0.finish() }

        var summary = ProcessingSummary()
        summary.readError = input.readError
        summary.damagedPackets = input.damagedPackets
        summary.corruptFrames = input.corruptFrames
        summary.shotCuts = shots.count
        planner?.summarize(into: &summary)
        analysis.summarize(into: &summary)
        let tracks = tracking.sync { $0.summarize(into: &summary) }
        encode?.sync { $0.summarize(into: &summary) }
        finish.summarize(into: &summary)
        if summary.readError == nil, !state.stopRequested, let ended = input.endedEarly(lastFrameTime: summary.lastTime) {
            summary.readError = ended
        }
        summary.interrupted = state.stopRequested
        summary.seconds = Date().timeIntervalSince(started)
        summary.statistics = clock.statistics(since: usageBefore, counts: summary.detectionPasses)
        summary.statistics?.memory = memory(frameBytes: frameBytes, shotFrames: shots.lookahead)
        return (summary, tracks)
    }

    /// What the run held at its peaks, from its own counters: decoded frames in flight (the most
    /// admitted at once, by where they wait), the BGRA pictures made, the networks' arenas and the
    /// rest of their memory.
    private func memory(frameBytes: Int, shotFrames: Int) -> [RunStatistics.MemoryPart] {
        let peak = inFlight.peak
        let window = min(self.window, peak), shots = min(shotFrames, peak - window)
        let mib = Double(frameBytes) / 1_048_576
        let pictures = pool.allocated
        let arenas = NetworkBytes.arenaPeak
        return [
            .init(name: "frames in flight", bytes: peak * frameBytes,
                  detail: String(format: "%d frames x %.2f MiB: look-ahead window %d, shot marker %d, lanes and queues %d (limit %d)",
                                 peak, mib, window, shots, peak - window - shots, inFlight.limit)),
            .init(name: "BGRA pictures", bytes: pictures.bytes, detail: "\(pictures.count) made (detector inputs, crops, converted frames)"),
            .init(name: "network arenas", bytes: arenas, detail: "activations, one arena per detector or model (tensors kept in rings apart)"),
            .init(name: "network weights, tables", bytes: max(0, NetworkBytes.totalPeak - arenas),
                  detail: "packed weights (CenterFace's shared by the lanes; the identity model's), constants, rings of rows"),
        ]
    }

    /// Plans a frame on the reader's thread and starts its analysis: at once, or (adaptive) its
    /// keyframe and tile now and its crops once the tracks they follow are known.
    private mutating func start(_ job: FrameJob) {
        var job = job
        boundarySincePlan = boundarySincePlan || job.boundary != nil
        guard (job.index + detectPhase) % detectEvery == 0 else { return analysis.accept(job) }
        let cut = boundarySincePlan
        boundarySincePlan = false
        state.attempt { job.plan = try clock.time(.detect) { try planner?.plan(for: job, cut: cut, failed: { state.isFailed }) } }
        guard let crops else { return analysis.accept(job) }
        analysis.acceptAhead(&job)
        crops.plan(job, then: analysis)
    }
}
