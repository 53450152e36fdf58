import FaceCore

/// Options of the `Tracker`. Every field has a default that suits 25-60 fps video of faces.
///
/// Feeding low-score detections: detectors drop faces below their own threshold, so the second
/// association pass only sees low-score faces when the pipeline runs the detector at
/// `lowThreshold` and keeps `highThreshold` at the user's `--threshold`. Detections between the
/// two thresholds never start a track and are only reported when they continue a confirmed one.
/// A third threshold, `birthThreshold`, is what a detection needs to start a track; between
/// `highThreshold` and it, a detection continues tracks but starts none.
public struct TrackerConfiguration: Sendable, Equatable {
    /// Consecutive detector runs a new track must be matched in before it gets an ID.
    public var minHits: Int
    /// Frames a track survives without a match before it is dropped (its ID is then never reused).
    public var maxAge: Int
    /// Detections at or above this confidence take part in the first pass and may start tracks.
    public var highThreshold: Double
    /// Detections below this confidence are ignored; those in [low, high) only feed the second pass.
    public var lowThreshold: Double
    /// An unmatched detection needs this confidence to start a track (`--track-threshold`); `nil`
    /// means `highThreshold`. Never below `highThreshold`.
    public var birthThreshold: Double?
    /// A new track gets its ID only once a pass that looked straight at it (not a crop made around
    /// another face: `FaceObservation.directConfidence`) found it at least this confident: half of
    /// `birthThreshold` (docs/scheduling.md, "Faces only a neighbour's crop sees").
    public var directLookThreshold: Double { (birthThreshold ?? highThreshold) / 2 }
    /// Minimum IoU between a track's predicted box and a detection for the first pass.
    public var iouThreshold: Double
    /// Minimum IoU for the second (low-score) pass, stricter because low scores are noisier.
    public var lowIoUThreshold: Double
    /// Whether confirmed tracks left unmatched by the first pass are matched to low-score detections.
    public var secondPass: Bool
    /// Third pass: a confirmed track missed on earlier frames and a first-pass detection still
    /// unmatched are compared as boxes enlarged by this fraction of their size on every side
    /// (C-BIoU's buffered IoU, Yang et al. 2023), at `iouThreshold`: the forecast of a face that was
    /// hidden drifts from where it reappears. 0 turns the pass off.
    public var recoveryBuffer: Double
    /// Whether `TrackedFace.display` is smoothed with a One Euro filter (`--no-smooth` turns it off).
    public var smoothing: Bool
    /// One Euro minimum cutoff frequency in Hz: lower is steadier when the face is still.
    public var minCutoff: Double
    /// One Euro speed coefficient, per face height per second: higher follows fast motion with less lag.
    public var beta: Double
    /// One Euro cutoff in Hz for the speed estimate.
    public var derivativeCutoff: Double
    /// A confirmed track missed by this many detector runs in a row or fewer is still reported,
    /// as `.predicted`, on detection frames and on the frames between them. 0 reports only matched tracks.
    public var reportMissedFrames: Int
    /// Anonymisation: every track, tentative ones too, is reported (as `.predicted`) on every frame
    /// it is not matched until it is dropped after `maxAge` frames, and a missed tentative track
    /// lives on that long instead of ending at once: a mask never blinks off between detections.
    public var holdsMasks = false
    /// With `holdsMasks`: a detection below `highThreshold` that continues no track is still
    /// reported (in no track, `trackSerial == 0`, for its mask) when at least this confident
    /// (`--mask-threshold`); `nil` masks none of them.
    public var maskThreshold: Double?
    /// Seconds between frames, used by the smoother when timestamps repeat, go back or are not finite.
    public var frameInterval: Double

    /// Creates a configuration; `maxAge` defaults to one second at 30 fps.
    public init(minHits: Int = 3, maxAge: Int = 30, highThreshold: Double = 0.5, lowThreshold: Double = 0.1,
                birthThreshold: Double? = nil, iouThreshold: Double = 0.3, lowIoUThreshold: Double = 0.5, secondPass: Bool = true,
                recoveryBuffer: Double = 0.3, smoothing: Bool = true, minCutoff: Double = 1.0, beta: Double = 4.0, derivativeCutoff: Double = 1.0,
                reportMissedFrames: Int = 2, frameInterval: Double = 1 / VideoTiming.assumedFramesPerSecond) {
        self.minHits = minHits
        self.maxAge = maxAge
        self.highThreshold = highThreshold
        self.lowThreshold = lowThreshold
        self.birthThreshold = birthThreshold
        self.iouThreshold = iouThreshold
        self.lowIoUThreshold = lowIoUThreshold
        self.secondPass = secondPass
        self.recoveryBuffer = recoveryBuffer
        self.smoothing = smoothing
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
        self.reportMissedFrames = reportMissedFrames
        self.frameInterval = frameInterval
    }

    /// A configuration for video at `framesPerSecond`: `maxAge` is one second of frames (at least 1)
    /// and `frameInterval` one frame. A rate that is not a positive finite number falls back to
    /// `VideoTiming.assumedFramesPerSecond`.
    public init(framesPerSecond: Double) {
        let fps = framesPerSecond.isFinite && framesPerSecond > 0 ? min(framesPerSecond, 1000) : VideoTiming.assumedFramesPerSecond
        self.init(maxAge: max(1, Int(fps.rounded())), frameInterval: 1 / fps)
    }

    /// The configuration with out-of-range values pulled into range, so the tracker never has to
    /// trust its input: counts at least 0 or 1, thresholds finite, `low <= high`, positive interval.
    var sanitized: TrackerConfiguration {
        var c = self
        c.minHits = max(1, minHits)
        c.maxAge = max(1, maxAge)
        c.highThreshold = highThreshold.isFinite ? highThreshold : 0.5
        c.lowThreshold = lowThreshold.isFinite ? min(lowThreshold, c.highThreshold) : c.highThreshold
        c.birthThreshold = max(birthThreshold.flatMap { $0.isFinite ? $0 : nil } ?? c.highThreshold, c.highThreshold)
        c.iouThreshold = iouThreshold.isFinite ? min(max(iouThreshold, 1e-6), 1) : 0.3
        c.lowIoUThreshold = lowIoUThreshold.isFinite ? min(max(lowIoUThreshold, 1e-6), 1) : 0.5
        c.recoveryBuffer = recoveryBuffer.isFinite ? min(max(recoveryBuffer, 0), 2) : 0
        c.minCutoff = minCutoff.isFinite && minCutoff > 0 ? minCutoff : 1
        c.beta = beta.isFinite && beta >= 0 ? beta : 0
        c.derivativeCutoff = derivativeCutoff.isFinite && derivativeCutoff > 0 ? derivativeCutoff : 1
        c.reportMissedFrames = max(0, reportMissedFrames)
        c.maskThreshold = maskThreshold.flatMap { $0.isFinite ? min($0, c.highThreshold) : nil }
        c.frameInterval = frameInterval.isFinite && frameInterval > 0 ? frameInterval : 1 / VideoTiming.assumedFramesPerSecond
        return c
    }
}
