import Attributes
import Detection
import FaceCore
import Foundation
import Identity
import MediaIO
import Rendering
import Scheduling
import Tracking

/// One run of FaceTrack over one video or image: what `facetrack process` does, as a value.
///
/// Every setting has the command line's default, so a job needs only its input and the outputs
/// it should write:
///
/// ```swift
/// var job = FaceTrackJob(input: "clip.mp4")
/// job.outputs.video = "clip-faces.mp4"
/// job.outputs.csv = "clip.csv"
/// let summary = try job.run()
/// ```
///
/// `process`, `batch` and `check` all build one of these from their options and call `run`.
public struct FaceTrackJob: Sendable {
    /// The video (or still image) to read.
    public var input: String
    /// The files to write; with none, faces are only counted.
    public var outputs: JobOutputs
    /// The detector, its threshold and the options every detector shares.
    public var detection: DetectionSettings
    /// The tracker's options.
    public var tracking: TrackingSettings
    /// What is drawn on the output video (`outputs.video`).
    public var overlay: OverlayConfiguration
    /// Face attributes measured with the face mesh (`--attributes`).
    public var attributes: AttributeSelection
    /// How the output video is encoded.
    public var encoder: EncoderSettings
    /// Worker threads for decoding, analysis, rendering and encoding; 0 means one per core.
    public var threads: Int
    /// The part of the video to process (`--start`, `--end`); `nil` for all of it.
    public var span: TimeSpan?
    /// Re-identification, known people and selective anonymisation.
    public var identity = IdentitySettings()
    /// Files the job reads besides `input` (the `--eye-sprite` picture, the `--cascade` file; the
    /// `--known` photos are added when they are read): no output may name one.
    public var readFiles: [ReadFile] = []
    /// Told, before the work starts, what will be slow (a huge picture): the tool prints it as a warning.
    package var notice: (@Sendable (String) -> Void)?
    /// Pixels from which a still picture gets a notice.
    package static let largePicture = 50_000_000
    /// The `--known` people, read once by the caller (so a bad photo fails before any video and
    /// batch reads the folder once); nil reads `identity.knownFolder` in `run`.
    package var knownPeople: KnownPeople?
    /// A stretch of the input to run over (a segment of a split plan: frame-exact, numbered and
    /// timed as in the whole video); nil for the whole input. Not combined with `span`.
    package var segment: JobSpan?

    /// Creates a job with the defaults of `facetrack process`.
    public init(input: String, outputs: JobOutputs = JobOutputs(), detection: DetectionSettings = DetectionSettings(),
                tracking: TrackingSettings = TrackingSettings(), overlay: OverlayConfiguration = OverlayConfiguration(),
                attributes: AttributeSelection = [], encoder: EncoderSettings = EncoderSettings(), threads: Int = 0) {
        self.input = input
        self.outputs = outputs
        self.detection = detection
        self.tracking = tracking
        self.overlay = overlay
        self.attributes = attributes
        self.encoder = encoder
        self.threads = threads
    }

    /// Checks the settings that do not depend on the input; `run` calls it first.
    public func validate() throws(JobSettingsError) {
        func require(_ condition: Bool, _ setting: String, _ expected: String) throws(JobSettingsError) {
            if !condition { throw JobSettingsError(setting: setting, expected: expected) }
        }
        let d = detection
        try require(d.threshold.map { (0...1).contains($0) } ?? true, "threshold (--threshold)", "a number from 0 to 1")
        try require(d.minFaceSize.isFinite && d.minFaceSize >= 0, "minimum face size (--min-face-size)", "0 or more pixels")
        try require((d.maxFaces ?? 1) >= 1, "maximum faces (--max-faces)", "at least 1")
        try require(d.detectEvery >= 1, "detection interval (--detect-every)", "at least 1")
        if case .centerface(let settings) = d.detector {
            try require((32...8192).contains(settings.inputSize), "input size (--input-size)", "32 to 8192 pixels")
        }
        try require(tracking.minHits >= 1, "minimum hits (--min-hits)", "at least 1")
        if let trackThreshold = tracking.trackThreshold {
            try require((0...1).contains(trackThreshold), "track threshold (--track-threshold)", "a number from 0 to 1")
            try require(trackThreshold >= d.effectiveThreshold, "track threshold (--track-threshold)",
                        "at least the reporting threshold (--threshold \(d.effectiveThreshold))")
        }
        if let maskThreshold = tracking.maskThreshold {
            try require(maskThreshold <= d.effectiveThreshold, "mask threshold (--mask-threshold)",
                        "at most the reporting threshold (--threshold \(d.effectiveThreshold))")
        }
        try require((tracking.maxAge ?? 1) >= 1, "maximum age (--max-age)", "at least 1 frame")
        try require(encoder.codec.map { EncoderSettings.codecs.contains($0) } ?? true, "codec (--codec)",
                    EncoderSettings.codecs.joined(separator: ", "))
        try require((0...51).contains(encoder.crf), "quality (--crf)", "0 to 51")
        try require(EncoderSettings.presets.contains(encoder.preset), "preset (--preset)",
                    EncoderSettings.presets.joined(separator: ", "))
        try require(threads >= 0, "threads (--threads)", "0 (one per core) or more")
        try require(segment == nil || span == nil, "span (--start/--end)",
                    "none on a segment of a split plan (--segment, --jobs): the plan cuts the whole video")
        try identity.validate()
        try require(overlay.anonymize != nil || (identity.keep.isEmpty && identity.only.isEmpty),
                    "people (--keep/--only)", "--anonymize blur|pixelate|fill: they choose whom it masks")
    }

    /// Reads the `--known` folder once (a photo without a face or with several throws a one-line
    /// `KnownPeopleError` naming it) and checks that `--keep`/`--only` name its people; later
    /// runs reuse the people read.
    public mutating func loadKnownPeople() throws {
        guard let folder = identity.knownFolder, knownPeople == nil else { return }
        let model = try IdentityModels(models: detection.models)
        let known = try KnownPeopleLoader.load(folder: folder, detection: detection, model: model,
                                               threshold: identity.knownThreshold)
        try identity.validateNames(known: known)
        knownPeople = known
        readFiles += known.photos.map { ReadFile(path: $0, role: "a --known photo") }
    }

    /// True when the face mesh has to run (attributes or landmarks asked for).
    var analysesFaces: Bool { !attributes.isEmpty || outputs.landmarks != nil }

    /// Lanes of the parallel stages (and cores for a still image's inference): `threads`, or one per core.
    var laneCount: Int { threads > 0 ? threads : max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// True when an output shows track IDs, which re-identification decides: the tracks CSV, JSON,
    /// MOT, tracks summary, landmarks and report, labels drawn on the video, and a segment of a
    /// split plan (its record of identities is stitched). An overlaid or anonymised copy without
    /// labels shows boxes, eyes and masks only, which are the same whoever the faces are.
    var showsTrackIDs: Bool {
        let files: [String?] = [outputs.csv, outputs.json, outputs.mot, outputs.tracksSummary, outputs.landmarks, outputs.report]
        return files.contains { $0 != nil } || overlay.kinds.contains(.labels) || segment != nil
    }

    /// Re-identification, known people and --keep/--only, when asked for: re-identification alone
    /// (the default) is skipped when no output shows track IDs (`showsTrackIDs`; `recordsIdentities`:
    /// a caller keeps the galleries), there are no faces to embed or an embedding model is not
    /// installed (a `notice` names it); --known, --keep and --only need the models.
    private func identityParts(recordsIdentities: Bool) throws
        -> (settings: IdentitySettings, model: IdentityModels, known: KnownPeople?)? {
        let asksForPeople = identity.knownFolder != nil || !identity.keep.isEmpty || !identity.only.isEmpty
        let wantsReid = identity.reidentify && detection.detector != .none && (showsTrackIDs || recordsIdentities)
        if !asksForPeople {
            guard wantsReid else { return nil }
            let missing = IdentityModels.missingFiles(models: detection.models)
            guard missing.isEmpty else {
                // Said, not silent: a models folder from before a model was added would otherwise
                // quietly give the tracker's IDs (a face back after a cut gets a new one).
                notice?("re-identification is off: \(missing.joined(separator: " and ")) not installed in "
                        + "\(detection.models.directory().path) (run scripts/setup, or give --no-reid)")
                return nil
            }
        }
        let model = try IdentityModels(models: detection.models)
        let known = try knownPeople ?? identity.knownFolder.map {
            let loaded = try KnownPeopleLoader.load(folder: $0, detection: detection, model: model,
                                                    threshold: identity.knownThreshold)
            loaded.poorPhotoNotices.forEach { notice?($0) }
            return loaded
        }
        try identity.validateNames(known: known)
        return (identity, model, known)
    }

    /// Runs the job: reads the input once, writes every output under a temporary name and renames
    /// it into place when the run succeeds. Throws a one-line error (naming the file) on bad input,
    /// a missing model or an unwritable output, leaving no output behind. `progress` is called
    /// after each finished frame; `stop` ends the run early with complete outputs of the frames
    /// done (`summary.interrupted`).
    public func run(progress: (@Sendable (JobProgress) -> Void)? = nil, stop: StopSignal = StopSignal()) throws
        -> ProcessingSummary {
        try run(progress: progress, stop: stop, extraOutputs: [])
    }

    /// `run`, keeping the face embeddings computed for re-identification in `galleries`, by the
    /// track IDs written (a segment of a split plan writes them for `stitch`).
    package func run(progress: (@Sendable (JobProgress) -> Void)?, stop: StopSignal, galleries: IdentityGalleries) throws
        -> ProcessingSummary {
        try run(progress: progress, stop: stop, extraOutputs: [], galleries: galleries)
    }

    /// Where the person of `known` (one person: `facetrack find`'s photo) appears in the input:
    /// tracks named after them, as time ranges. Reads the input once; writes only `outputs`.
    func findAppearances(of known: KnownPeople) throws -> (ranges: [AppearanceRange], summary: ProcessingSummary) {
        var job = self
        job.knownPeople = known
        if job.identity.knownFolder == nil { job.identity.knownFolder = "" }
        let collector = AppearanceCollector()
        let summary = try job.run(progress: nil, stop: StopSignal(), extraOutputs: [collector])
        return (collector.ranges.ranges, summary)
    }

    private func run(progress: (@Sendable (JobProgress) -> Void)?, stop: StopSignal, extraOutputs: [FrameOutput],
                     galleries: IdentityGalleries? = nil) throws -> ProcessingSummary {
        let registration = outputs.started()
        var succeeded = false
        defer { outputs.finished(run: registration, succeeded: succeeded) }
        let summary = try runRegistered(progress: progress, stop: stop, extraOutputs: extraOutputs, galleries: galleries)
        succeeded = true
        return summary
    }

    private func runRegistered(progress: (@Sendable (JobProgress) -> Void)?, stop: StopSignal, extraOutputs: [FrameOutput],
                               galleries: IdentityGalleries?) throws -> ProcessingSummary {
        let started = Date()
        try validate()
        var readFiles = self.readFiles
        if knownPeople == nil, let folder = identity.knownFolder, !folder.isEmpty,
           let photos = try? KnownPeople.photoFiles(in: folder) {
            readFiles += photos.flatMap(\.photos).map { ReadFile(path: $0, role: "a --known photo") }
        }
        try outputs.checkDistinct(input: input, readFiles: readFiles)
        // The input first: its errors come before any model is loaded.
        let reader = if let segment {
            try VideoReader(path: input, threads: threads, span: segment.read)
        } else {
            try VideoReader(path: input, threads: threads, span: span)
        }
        if reader.isStillImage, let size = reader.pictureSize, size.width * size.height >= Self.largePicture {
            notice?("\(input): a \(size.width) x \(size.height) picture (\(size.width * size.height / 1_000_000) MP): "
                    + "detecting in full-resolution tiles and writing it take a while and a few GB of memory")
        }
        let inputs = [input] + readFiles.map(\.path)
        // Every output is checked (and opened under a temporary name) before any model loads; an
        // output that is never finished deletes its temporary file.
        var outputs: [FrameOutput] = []
        if let path = self.outputs.csv {
            outputs.append(try TrackCSVWriter(path: path, inputs: inputs, includesPerson: self.identity.knownFolder != nil,
                                              includesMask: overlay.anonymize != nil))
        }
        if let path = self.outputs.json {
            outputs.append(try TrackJSONWriter(path: path, inputs: inputs, includesPerson: self.identity.knownFolder != nil,
                                               includesMask: overlay.anonymize != nil))
        }
        if let path = self.outputs.mot { outputs.append(try MOTChallengeWriter(path: path, inputs: inputs)) }
        if let path = self.outputs.tracksSummary { _ = try AtomicOutput(path: path, inputs: inputs) }
        if let path = self.outputs.landmarks { outputs.append(try LandmarkCSVWriter(path: path, inputs: inputs)) }
        let report = try self.outputs.report.map { try JobReport(path: $0, inputs: inputs) }
        if let report { outputs.append(report.collector) }
        if let path = self.outputs.video, StillImageWriter.isStillImage(path) {
            // A photo to .jpg/.png is written as a real still image, upright, not an H.264 stream.
            guard reader.isStillImage else { throw OutputFormatError(path: path) }
            outputs.append(try StillImageOutput(path: path, input: input, renderer: overlay.draws ? OverlayRenderer(configuration: overlay) : nil))
        }
        var builder = PipelineBuilder(job: self, input: reader, outputs: outputs + extraOutputs)
        builder.identity = try identityParts(recordsIdentities: galleries != nil)
        builder.galleries = galleries
        builder.stop = stop
        let total = reader.estimatedFrameCount
        if let progress { builder.progress = { progress(JobProgress(frames: $0, estimatedTotal: total)) } }
        var pipeline = try builder.build()
        // The identity stage's networks hold the embedding models' weights packed now: the models
        // as read (22 MB of dlib weights, SFace's dequantised 38 MB) go before the frames come.
        builder.identity = nil
        MemoryPolicy.releaseFreedMemory()
        var (summary, tracks) = try pipeline.run()
        do {
            for output in outputs { try output.finish() }
            if let path = self.outputs.tracksSummary { try TrackSummaryWriter.write(tracks, to: path, inputs: inputs) }
        } catch {
            // One output failed (a full disk) after others were renamed into place: a failed run leaves none.
            self.outputs.removeWritten()
            throw error
        }
        // The report is made from the finished outputs' data: when it fails (a video it cannot
        // read again), the tracks and the video stay, and the error says so.
        do {
            try report?.finish(job: self, summary: summary)
        } catch {
            throw ReportFailedError(report: self.outputs.report ?? "", reason: "\(error)",
                                    kept: self.outputs.named.map(\.path).filter { $0 != self.outputs.report && $0 != "-" })
        }
        // The whole run's time: opening the input and finishing the outputs (re-encoding a huge
        // photo, a report's thumbnails) included, not only the frames' pipeline.
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }
}

/// The files a job writes. Every path may be `nil` (not written); "-" writes the CSV to standard output.
public struct JobOutputs: Sendable, Equatable {
    /// The overlaid copy of the input (`-o`); the container follows the extension.
    public var video: String?
    /// Per-frame face tracks as CSV (`--csv`).
    public var csv: String?
    /// MOTChallenge text (`--mot`).
    public var mot: String?
    /// A JSON list of tracks (`--tracks-summary`).
    public var tracksSummary: String?
    /// The 468 face-mesh points of each detected face as CSV (`--landmarks`).
    public var landmarks: String?
    /// A self-contained HTML report of the run (`--report`), written at its end.
    public var report: String?
    /// Per-frame face tracks as JSON Lines, the CSV's fields (`--json`).
    public var json: String?

    /// Creates a set of outputs; by default nothing is written.
    public init(video: String? = nil, csv: String? = nil, mot: String? = nil, tracksSummary: String? = nil,
                landmarks: String? = nil, report: String? = nil, json: String? = nil) {
        self.video = video
        self.csv = csv
        self.mot = mot
        self.tracksSummary = tracksSummary
        self.landmarks = landmarks
        self.report = report
        self.json = json
    }

    /// True when no output is asked for.
    public var isEmpty: Bool { self == JobOutputs() }
}

/// How far a running job is.
public struct JobProgress: Sendable {
    /// Frames finished so far.
    public var frames: Int
    /// Frames the input holds, from its container; `nil` when unknown.
    public var estimatedTotal: Int?
}

/// A job setting out of its range: one line naming the setting, its option and what it takes.
public struct JobSettingsError: Error, CustomStringConvertible, Sendable {
    /// The setting, with its command-line option, e.g. "threshold (--threshold)".
    public let setting: String
    /// What the setting accepts.
    public let expected: String

    /// One line for the user.
    public var description: String { "invalid \(setting): expected \(expected)" }
}

/// `--report` failed after the run's other outputs were written; they are kept.
public struct ReportFailedError: Error, CustomStringConvertible, Sendable {
    /// The report's path.
    public let report: String
    /// Why it failed (one line naming the file).
    public let reason: String
    /// The outputs that were written and kept.
    public let kept: [String]

    /// One line for the user.
    public var description: String {
        "\(report): report not written: \(reason)" + (kept.isEmpty ? "" : "; kept \(kept.joined(separator: ", "))")
    }
}

extension OverlayConfiguration {
    /// True when anything is drawn on the output (overlays or anonymisation).
    var draws: Bool { !kinds.isEmpty || anonymize != nil }
}
