import Dispatch
import Evaluation
import FaceCore
import Foundation
import MediaIO
import Rendering
import Report

/// `facetrack render`: draws the overlays or anonymisation of a tracks file (ours, edited, or
/// MOTChallenge text) on a video without running any detector, optionally after a review's
/// edits, or a visual diff of the tracks against a truth file. Decodes, draws on the lanes and
/// encodes with the stages `process` uses (`RenderStage`, `EncodeStage`), so audio, timing and
/// rotation come through the same way.
package struct RenderJob: Sendable {
    /// The video to draw on.
    package var input: String
    /// The tracks file.
    package var tracks: String
    /// The output video.
    package var output: String
    /// A review's edits, applied to the tracks first (`--edits`).
    package var edits: String?
    /// A truth file: draws a visual diff (`--truth`).
    package var truth: String?
    /// The IoU at which a prediction matches a truth face in a visual diff (as `eval --iou`).
    package var iouThreshold = 0.5
    /// Fills each track's missing frames between its rows (`--interpolate`).
    package var interpolate = false
    /// What is drawn.
    package var overlay: OverlayConfiguration
    /// How the output is encoded.
    package var encoder: EncoderSettings
    /// Lanes for drawing, and the decoder's and encoder's threads; 0 means one per core.
    package var threads = 0
    /// The part of the video to render.
    package var span: TimeSpan?
    /// Files read besides the input (the eye sprite): the output may not name one.
    package var readFiles: [ReadFile] = []

    package init(input: String, tracks: String, output: String, overlay: OverlayConfiguration = OverlayConfiguration(),
                 encoder: EncoderSettings = EncoderSettings()) {
        self.input = input
        self.tracks = tracks
        self.output = output
        self.overlay = overlay
        self.encoder = encoder
    }

    /// What a render did.
    package struct Summary: Sendable {
        package var frames = 0
        package var faces = 0
        package var tracks = 0
        package var interpolated = 0
        package var seconds = 0.0
        package var interrupted = false
        package var readError: String?
        /// The diff's counts (with `truth`): faces matched, missed, false, ID switches.
        package var diff: (matched: Int, missed: Int, falseDetections: Int, switches: Int)?
    }

    /// Reads the tracks (and edits and truth), then the video once, writing `output` under a
    /// temporary name renamed on success. Every error is one line naming its file.
    package func run(progress: (@Sendable (JobProgress) -> Void)? = nil, stop: StopSignal = StopSignal()) throws -> Summary {
        let started = Date()
        let outputs = JobOutputs(video: output)
        try outputs.checkDistinct(input: input, readFiles: readFiles + [ReadFile(path: tracks, role: "the --tracks file")]
                                      + (edits.map { [ReadFile(path: $0, role: "the --edits file")] } ?? [])
                                      + (truth.map { [ReadFile(path: $0, role: "the --truth file")] } ?? []))
        guard !StillImageWriter.isStillImage(output) else {
            throw RenderError(path: output, reason: "render writes a video (.mp4, .mkv, .mov, .webm...), not a still image")
        }
        var file = try TrackFile(path: tracks)
        if let edits { try TrackEdits(path: edits).apply(to: &file.rows) }
        var overlay = self.overlay
        var summary = Summary()
        let schedule: FaceSchedule
        if let truth {
            let truthTable = try TrackTable.load(path: truth, requireIDs: true)
            let prediction = file.evaluationTable(interpolated: interpolate)
            let outcomes = try Evaluator(iouThreshold: iouThreshold).outcomes(truth: truthTable, prediction: prediction)
            schedule = FaceSchedule(outcomes: outcomes, rows: file.rows)
            overlay.legend = true
            summary.diff = outcomes.values.reduce((0, 0, 0, 0)) { sum, o in
                (sum.0 + o.matched.count, sum.1 + o.missed.count, sum.2 + o.falsePositives.count,
                 sum.3 + o.matched.filter { $0.switchedFrom != nil }.count)
            }
        } else {
            let marked = file.rows.contains { $0.mask == .mask }
            let masksOnlyMarked = overlay.anonymize == nil && marked
            if masksOnlyMarked { overlay.anonymize = .blur }
            schedule = FaceSchedule(rows: file.rows, interpolate: interpolate, masksOnlyMarked: masksOnlyMarked)
        }
        summary.tracks = Set(file.rows.compactMap(\.trackID)).count
        summary.interpolated = schedule.interpolated

        let reader = try VideoReader(path: input, threads: threads, span: span)
        guard !reader.isStillImage else {
            throw RenderError(path: input, reason: "render draws on videos; for a photo use facetrack process")
        }
        if span == nil, let total = reader.estimatedFrameCount, let last = schedule.lastFrame, last >= total + 1,
           let row = file.rows.first(where: { $0.frame >= total + 1 }) {
            // The container's count can be one off; the exact check comes after reading.
            throw file.beyondVideo(row, frames: total, video: input)
        }
        let laneCount = threads > 0 ? threads : max(1, ProcessInfo.processInfo.activeProcessorCount)
        let state = RunState(stop: stop)
        let clock = StageClock()
        let pool = ImagePool()
        let lanes = LanePool((0..<laneCount).map { _ in Lane(detector: nil, analyzer: nil) }, label: "facetrack.render")
        let inFlight = InFlightLimit(laneCount * 2 + 2)
        let total = reader.estimatedFrameCount
        var report: (@Sendable (Int) -> Void)?
        if let progress { report = { progress(JobProgress(frames: $0, estimatedTotal: total)) } }
        let finish = FinishStage(pool: pool, inFlight: inFlight, progress: report)
        let writer = try VideoWriter(path: output, inputs: [input, tracks] + [edits, truth].compactMap { $0 } + readFiles.map(\.path),
                                     settings: encoder, threads: threads, source: reader)
        let encoding = QueueBound(EncodeStage(writer: writer, state: state, clock: clock, next: finish.accept),
                                  queue: DispatchQueue(label: "facetrack.encode"))
        let render = RenderStage(lanes: lanes, renderer: OverlayRenderer(configuration: overlay), drawsHidden: false,
                                 frames: writer.framePool, pool: pool, state: state, clock: clock,
                                 next: { job in encoding.async { $0.accept(job) } })
        var faces = 0
        var lastNumber = -1
        do {
            while !state.isFailed {
                if state.stopRequested { reader.stopReading() }
                guard let item = try reader.next() else { break }
                switch item {
                case .frame(let decoded):
                    lastNumber = decoded.index
                    var job = FrameJob(decoded)
                    job.faces = schedule.faces[decoded.index] ?? []
                    faces += job.faces.count
                    if let rows = schedule.rows[decoded.index] {
                        let size = decoded.orientation.uprightSize(width: decoded.frame.width, height: decoded.frame.height)
                        try file.check(rows, width: size.width, height: size.height, video: input)
                    }
                    inFlight.admit()
                    render.accept(job)
                case .audio(let packet):
                    encoding.async { $0.acceptAudio(packet) }
                }
            }
        } catch let error as ReportError {
            state.fail(error)
        } catch {
            state.fail(MediaError.failed(input, error as? FFmpegError ?? FFmpegError(-1, "\(error)")))
        }
        inFlight.waitForAll()
        lanes.drain()
        encoding.sync { _ in }
        var failure = state.firstError
        if failure == nil, reader.frameCount == 0 {
            failure = state.stopRequested ? MediaError.stoppedBeforeFirstFrame(input)
                : span.map { MediaError.emptySpan(input, span: $0) } ?? MediaError.noFrames(input)
        }
        // Rows beyond the last frame decoded: the tracks belong to another (or a longer) video.
        if failure == nil, span?.end == nil, !state.stopRequested, let last = schedule.lastFrame, last > lastNumber,
           let row = file.rows.first(where: { $0.frame > lastNumber }) {
            failure = file.beyondVideo(row, frames: lastNumber + 1, video: input)
        }
        if let failure {
            encoding.sync { $0.discard() }
            throw failure
        }
        try encoding.sync { try $0.finish() }
        summary.frames = reader.frameCount
        summary.faces = faces
        summary.readError = reader.readError
        summary.interrupted = state.stopRequested
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }
}

extension TrackFile {
    /// The rows as `facetrack eval` reads a prediction (after edits; interpolated gaps included
    /// when asked), for a visual diff.
    func evaluationTable(interpolated: Bool) -> TrackTable {
        var rows: [TrackRow] = []
        let schedule = FaceSchedule(rows: self.rows, interpolate: interpolated, masksOnlyMarked: false)
        for (frame, faces) in schedule.faces {
            for face in faces {
                rows.append(TrackRow(frame: frame, trackID: face.trackID, box: face.observation.bounds,
                                     confidence: face.observation.confidence, leftEye: face.observation.leftEye,
                                     rightEye: face.observation.rightEye))
            }
        }
        rows.sort { ($0.frame, $0.trackID ?? -1) < ($1.frame, $1.trackID ?? -1) }
        return TrackTable(path: path, rows: rows, frames: Set(self.rows.map(\.frame)))
    }

    /// Refuses a row whose face lies wholly outside the upright `width` x `height` frame; a
    /// `predicted` row may (an `--anonymize` run's held mask follows a face out of the picture).
    func check(_ rows: [Row], width: Int, height: Int, video: String) throws {
        for row in rows {
            guard let face = row.face, face.source != .predicted else { continue }
            let box = face.bounds
            if box.x >= Double(width) || box.y >= Double(height) || box.maxX <= 0 || box.maxY <= 0 {
                throw ReportError.badValue(path, line: row.line, column: column("x"),
                                           reason: String(format: "box at %.2f,%.2f size %.2fx%.2f lies outside the %dx%d frame of %@",
                                                          box.x, box.y, box.width, box.height, width, height, video))
            }
        }
    }
}
