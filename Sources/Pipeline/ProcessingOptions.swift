import FaceCore
import MediaIO

/// What `VideoProcessor` should do with one input (the options of `facetrack process`).
public struct ProcessingOptions: Sendable {
    /// The video (or still image) to read.
    public var input: String
    /// The overlaid video to write; `nil` skips encoding entirely.
    public var output: String?
    /// The tracks CSV to write, if any.
    public var csvPath: String?
    /// How the output video is encoded.
    public var encoder: EncoderSettings
    /// Worker count for decoding, analysis and rendering; 0 means one per core.
    public var threads: Int
    /// Keep only the N most confident faces per frame.
    public var maxFaces: Int?
    /// Run the detector on every Nth frame only; the tracker predicts the frames between.
    public var detectEvery: Int

    /// Creates options with the defaults of `facetrack process`.
    public init(input: String, output: String? = nil, csvPath: String? = nil, encoder: EncoderSettings = EncoderSettings(),
                threads: Int = 0, maxFaces: Int? = nil, detectEvery: Int = 1) {
        self.input = input
        self.output = output
        self.csvPath = csvPath
        self.encoder = encoder
        self.threads = threads
        self.maxFaces = maxFaces
        self.detectEvery = detectEvery
    }
}

/// What a finished (or interrupted) run did.
public struct ProcessingSummary: Sendable {
    /// Frames decoded and passed through every stage.
    public var frames = 0
    /// Face rows reported (detected and predicted).
    public var faces = 0
    /// Confirmed tracks (0 without a tracker).
    public var tracks = 0
    /// Frames covered by the longest track.
    public var longestTrack = 0
    /// Wall-clock seconds.
    public var seconds = 0.0
    /// Packets the decoder rejected as damaged (skipped).
    public var damagedPackets = 0
    /// Frames the decoder marked as corrupt (kept, with concealed errors).
    public var corruptFrames = 0
    /// Detections dropped for NaN, infinite or non-positive boxes.
    public var invalidDetections = 0
    /// Set when the input ended early or could not be read to its end.
    public var readError: String?
    /// True when the run was stopped by `requestStop()` (SIGINT).
    public var interrupted = false
    /// Presentation time of the last frame done, in seconds.
    public var lastTime: Double?

    /// Frames per second over the wall time.
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
}
