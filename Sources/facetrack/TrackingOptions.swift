import FaceTrack

/// The tracker options of `process`, and the tracker they make.
struct TrackingOptions {
    static let valued: Set<String> = ["--detect-every", "--min-hits", "--max-age", "--mot", "--tracks-summary"]
    static let flags: Set<String> = ["--no-smooth", "--no-second-pass"]
    static let help = """
      --detect-every N      run the detector on every Nth frame only; the tracker predicts the rest (default 1)
      --min-hits N          detections in a row before a face gets a track ID (default 3)
      --max-age N           frames a lost face keeps its ID (default: one second of video)
      --no-smooth           draw the measured boxes instead of smoothed ones
      --no-second-pass      do not match low-confidence detections to lost tracks (ByteTrack's second pass)
      --mot FILE            also write MOTChallenge text (frame,id,x,y,w,h,conf,-1,-1,-1; frames from 1)
      --tracks-summary FILE also write a JSON list of tracks (first/last frame, frame count, mean confidence)
    """

    let detectEvery: Int
    let minHits: Int?
    let maxAge: Int?
    let smoothing: Bool
    let secondPass: Bool
    let motPath: String?
    let summaryPath: String?

    init(_ arguments: Arguments) throws {
        detectEvery = try arguments.int("--detect-every", in: 1...10_000) ?? 1
        minHits = try arguments.int("--min-hits", in: 1...1000)
        maxAge = try arguments.int("--max-age", in: 1...100_000)
        smoothing = !arguments.has("--no-smooth")
        secondPass = !arguments.has("--no-second-pass")
        motPath = arguments.string("--mot")
        summaryPath = arguments.string("--tracks-summary")
    }

    /// The tracker. For the second pass, the detector is asked for faces down to half the user's
    /// threshold; those below the threshold only continue tracks that are already confirmed, so
    /// the output still respects the threshold.
    func makeTracker(framesPerSecond: Double?, detector: inout DetectorOptions) -> Tracker {
        var configuration = TrackerConfiguration(framesPerSecond: framesPerSecond ?? 30)
        if let minHits { configuration.minHits = minHits }
        if let maxAge { configuration.maxAge = maxAge }
        configuration.smoothing = smoothing
        configuration.secondPass = secondPass
        let threshold = detector.effectiveThreshold
        configuration.highThreshold = threshold
        configuration.lowThreshold = secondPass ? threshold / 2 : threshold
        detector.configuration.threshold = configuration.lowThreshold
        return Tracker(configuration: configuration)
    }
}

/// The extra per-track outputs (`--mot`, `--tracks-summary`), written beside the CSV.
final class TrackOutputs {
    private let mot: MOTChallengeWriter?
    private let summaryPath: String?
    private let inputs: [String]

    init(_ options: TrackingOptions, inputs: [String]) throws {
        if let summaryPath = options.summaryPath {
            _ = try AtomicOutput(path: summaryPath, inputs: inputs)  // refuse an input or an unwritable folder up front
        }
        mot = try options.motPath.map { try MOTChallengeWriter(path: $0, inputs: inputs) }
        summaryPath = options.summaryPath
        self.inputs = inputs
    }

    /// The pipeline's frame observer.
    func observe(frame: Int, time: Double, faces: [TrackedFace]) throws {
        try mot?.write(frameIndex: frame, faces: faces)
    }

    /// Closes the MOT file and writes the summary.
    func finish(tracker: Tracker) throws {
        try mot?.finish()
        if let summaryPath { try TrackSummaryWriter.write(tracker.summary, to: summaryPath, inputs: inputs) }
    }
}
