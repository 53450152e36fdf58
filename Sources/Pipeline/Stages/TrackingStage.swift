import Dispatch
import FaceCore
import MediaIO
import Scheduling
import Synchronization
import Tracking

/// What the tracking stage needs to look back for a newly confirmed track (adaptive detection):
/// its own detector and sampler (used on the stage's queue only), and the crop geometry.
final class Backfill {
    let detector: FaceDetector
    let geometry: DetectionGeometry
    let sampler = FrameSampler()
    let pool: ImagePool
    let clock: StageClock
    /// Serials of the tracks confirmed so far.
    var confirmed: Set<Int> = []
    /// Rows recovered so far.
    var recovered = 0
    /// Crops the detector ran on.
    var passes = 0

    init(detector: FaceDetector, geometry: DetectionGeometry, pool: ImagePool, clock: StageClock) {
        self.detector = detector
        self.geometry = geometry
        self.pool = pool
        self.clock = clock
    }

    /// The face the detector finds in a crop around `expected` on `job`'s picture, if one
    /// overlaps it (IoU 0.3 or more).
    func find(on job: FrameJob, near expected: Rect) -> FaceObservation? {
        let size = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
        var pass = ScheduledPass.crop(around: expected, serial: 0, frameWidth: size.width, frameHeight: size.height,
                                      geometry: geometry)
        let picture = pool.acquire(width: pass.pictureWidth, height: pass.pictureHeight)
        defer { pool.release(picture) }
        guard let sampled = try? sampler.sample(job.frame, orientation: job.orientation, region: pass.region, into: picture),
              let found = try? clock.timePass(.lookBack, { try detector.detect(in: picture) }) else { return nil }
        passes += 1
        pass.region = sampled
        var merger = DetectionMerger(width: size.width, height: size.height)
        merger.add(found, from: pass)
        return merger.merged().filter { $0.bounds.iou(expected) >= 0.3 }.max { $0.bounds.iou(expected) < $1.bounds.iou(expected) }
    }
}

/// Serial stage, in frame order: the tracker (ending every track at a shot cut), forecasts for the
/// reader's scheduler, the look-ahead window that decides what is written, then smoothing,
/// per-track decisions such as attribute hysteresis, statistics and every per-frame output (CSV,
/// MOT, landmarks). Frames leave the stage `lookahead` frames after they came in, and the rest at
/// the end of the input. The stage lives on one queue (`QueueBound<TrackingStage>`); its methods
/// run there, one at a time.
final class TrackingStage {
    private struct Serial {
        let tracker: Tracker?
        let faceProcessor: TrackedFaceProcessor?
        let outputs: [FrameOutput]
        var buffer: LookaheadBuffer<FrameJob>
        var smoothing: TrackSmoothing?
        /// Re-identification, known people and --keep/--only; nil when none is asked for.
        var identity: IdentityResolver?
        var accepted = 0
        var expected: Int?
        /// The shot of the frames coming in: one more after each boundary.
        var shot = 0
        /// Times of the last frames, by frame number modulo their count (a transition's start).
        var times = [Double](repeating: 0, count: 64)
        /// The tracks' recent heads, for each mask's size floor (with --anonymize).
        var masks = MaskRegion.Recent()

        init(tracker: Tracker?, faceProcessor: TrackedFaceProcessor?, outputs: [FrameOutput], lookahead: Int, smoothing: TrackSmoothing?) {
            self.tracker = tracker
            self.faceProcessor = faceProcessor
            self.outputs = outputs
            buffer = LookaheadBuffer(depth: lookahead)
            self.smoothing = smoothing
        }
    }
    private var serial: Serial
    private let board: ForecastBoard?
    private let backfill: Backfill?
    private let state: RunState
    private let clock: StageClock
    private let next: FrameHandoff
    /// The statistics of the rows written.
    private var statistics = TrackStatistics()
    /// Face rows written.
    private var faceCount = 0
    /// With `--anonymize`: the tracks CSV and JSON also list the masked faces not reported
    /// (`MaskRows`), so what was hidden can be checked from them alone.
    private let listsMasks: Bool
    /// `--mask-scale`: decides which held masks still reach into the picture.
    private let maskScale: Double

    /// `smoothing` fills the drawn copy of each written row; `board` receives the tracker's
    /// forecasts (adaptive detection).
    init(tracker: Tracker?, faceProcessor: TrackedFaceProcessor?, outputs: [FrameOutput], lookahead: Int,
         smoothing: TrackSmoothing?, board: ForecastBoard?, backfill: Backfill?, identity: IdentityResolver? = nil,
         listsMasks: Bool = false, maskScale: Double = 1.3, state: RunState, clock: StageClock, next: @escaping FrameHandoff) {
        serial = Serial(tracker: tracker, faceProcessor: faceProcessor, outputs: outputs, lookahead: lookahead,
                        smoothing: smoothing)
        serial.identity = identity
        self.board = board
        self.backfill = backfill
        self.listsMasks = listsMasks
        self.maskScale = maskScale
        self.state = state
        self.clock = clock
        self.next = next
    }

    func accept(_ job: FrameJob) {
        var job = job
        if job.boundary != nil, job.index > 0 { serial.shot += 1 }
        job.shot = serial.shot
        serial.times[job.index % serial.times.count] = job.time
        var rows: [TrackedFace] = []
        state.attempt { rows = clock.time(.track) { track(&job) } }
        if let board { board.post(after: job.index) { [tracker = serial.tracker] in tracker?.forecast(steps: $0) ?? [] } }
        serial.accepted += 1
        let leaving = serial.buffer.push(frame: job.number, time: job.time, rows: rows, payload: job)
        if let backfill { clock.time(.detect) { lookBack(for: rows, with: backfill) } }
        clock.time(.track) { for out in leaving { write(out) } }
        flushIfComplete()
    }

    /// Tells the stage how many frames the input had; the frames still held go out once all came in.
    func endOfInput(frames: Int) {
        serial.expected = frames
        flushIfComplete()
    }

    /// Adds the faces written, the tracks and the faces embedded to `summary`; returns the
    /// written tracks' summaries (`--tracks-summary`), with the names of known people.
    func summarize(into summary: inout ProcessingSummary) -> TrackingSummary {
        summary.detectionPasses.lookBack = backfill?.passes ?? 0
        var tracking = TrackingSummary(confirmedTrackCount: serial.tracker?.confirmedTrackCount ?? 0,
                                       longestTrackFrameCount: statistics.longestTrackFrameCount,
                                       droppedDetectionCount: serial.tracker?.droppedDetectionCount ?? 0,
                                       tracks: statistics.summaries)
        if let resolver = serial.identity {
            for i in tracking.tracks.indices {
                guard let person = resolver.personOfIdentity[tracking.tracks[i].id] else { continue }
                tracking.tracks[i].person = person.name
                tracking.tracks[i].personDistance = Double(person.distance)
            }
            // Tracks that continued an earlier one share its ID: count the IDs.
            tracking.confirmedTrackCount = tracking.tracks.count
            summary.embeddedFaces = resolver.embeddingCount
        }
        summary.faces = faceCount
        summary.tracks = tracking.confirmedTrackCount
        summary.longestTrack = tracking.longestTrackFrameCount
        return tracking
    }

    private func flushIfComplete() {
        guard let expected = serial.expected, serial.accepted == expected else { return }
        for (track, id) in serial.tracker?.confirmAtEnd() ?? [] { serial.buffer.assign(id: id, to: track) }
        clock.time(.track) { for out in serial.buffer.flush() { write(out) } }
        serial.expected = nil
    }

    /// The tracker's rows for one frame (all of them: the look-ahead decides what is written).
    private func track(_ job: inout FrameJob) -> [TrackedFace] {
        guard let tracker = serial.tracker else {
            return (job.detections ?? []).map { TrackedFace(observation: $0, trackID: nil) }
        }
        if job.boundary != nil {
            tracker.endAllTracks()
            // Pictures of a fade or dissolve mix two people: samples from them decide nothing.
            let start = job.transitionStart.map { job.index - $0 < serial.times.count ? serial.times[$0 % serial.times.count] : job.time }
            serial.identity?.cut(at: job.time, transitionStart: start, frame: job.number)
        }
        var rows: [TrackedFace]
        if let plan = job.plan {
            rows = tracker.update(frame: job.number, time: job.time, detections: job.detections, coverage: plan.covers)
            for i in rows.indices where !rows[i].source.isDetection && plan.skippedCrops.contains(rows[i].trackSerial) {
                rows[i].cropSkipped = true
            }
        } else {
            rows = tracker.update(frame: job.number, time: job.time, detections: job.detections)
        }
        if let identity = serial.identity {
            state.attempt { try identity.resolve(&rows, job: &job, live: Set(tracker.forecast(steps: 0).map(\.serial))) }
        }
        return rows
    }

    /// With `--anonymize`: frames before a newly confirmed face's first detection (where the look-back
    /// finds it no more) that keep a mask along its early motion, as many as a lost face's mask is held.
    private var maskLookBackFrames: Int { listsMasks ? serial.tracker?.configuration.maxAge ?? 0 : 0 }

    /// Extends each track confirmed on this frame back over the held frames before its first detection.
    private func lookBack(for rows: [TrackedFace], with backfill: Backfill) {
        for row in rows where row.trackID != nil && !backfill.confirmed.contains(row.trackSerial) {
            backfill.confirmed.insert(row.trackSerial)
            backfill.recovered += serial.buffer.extendBackward(serial: row.trackSerial, holdingMasksFor: maskLookBackFrames,
                                                               startsShot: { $0.boundary != nil }) {
                job, expected in backfill.find(on: job, near: expected)
            }
        }
    }

    /// Finishes a frame leaving the look-ahead window and hands it on.
    private func write(_ out: LookaheadBuffer<FrameJob>.Frame) {
        var job = out.payload
        job.faces = serial.tracker == nil ? out.faces + out.hidden : out.faces
        job.hidden = serial.tracker == nil ? [] : out.hidden
        if let identity = serial.identity {
            // Identities are published as rows leave the window, when the most evidence is in.
            job.hidden += identity.publish(&job.faces, frame: job.number, time: job.time)
            // A dissolve's middle picture blends two faces: it names no one.
            identity.label(&job.faces, time: job.time, mixed: job.boundary == .dissolve)
            identity.label(&job.hidden, time: job.time, mixed: job.boundary == .dissolve)
        }
        for i in job.faces.indices { job.faces[i].shot = job.shot }
        for i in job.hidden.indices { job.hidden[i].shot = job.shot }
        state.attempt {
            serial.smoothing?.smooth(&job.faces, frame: job.number, time: job.time)
            serial.faceProcessor?.process(&job.faces, frame: job.number)
            statistics.add(frame: job.number, time: job.time, rows: job.faces)
            faceCount += job.faces.count
            if listsMasks {
                // Decided once: the renderer draws these regions and the tracks CSV writes them.
                serial.masks.forget(before: job.number)
                for i in job.faces.indices { job.faces[i].maskRegion = serial.masks.region(of: job.faces[i], frame: job.number) }
                for i in job.hidden.indices { job.hidden[i].maskRegion = serial.masks.region(of: job.hidden[i], frame: job.number) }
                // A held mask that lies wholly outside the picture (a face that left) hides nothing: not drawn, not listed.
                let size = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
                job.hidden.removeAll { face in
                    !face.source.isDetection && (EllipseMask(face: MaskRegion.region(of: face), scale: maskScale)?.bounds
                        .clipped(width: size.width, height: size.height).isEmpty ?? true)
                }
            }
            let masks = listsMasks ? job.hidden.filter(\.masked).map(Self.maskRow) : []
            for output in serial.outputs {
                try output.write(frame: job.number, time: job.time, faces: output.listsMasks ? job.faces + masks : job.faces)
            }
        }
        next(job)
    }

    /// A masked face that is not reported, as the tracks CSV lists it: no track ID; `tentative`
    /// for a detection, `predicted` for a held mask.
    private static func maskRow(_ face: TrackedFace) -> TrackedFace {
        var row = face
        row.trackID = nil
        row.source = face.source.isDetection ? .tentative : .predicted
        return row
    }
}
