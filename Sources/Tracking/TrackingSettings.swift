import FaceCore

/// The tracker options of a run (`--min-hits`, `--max-age`, `--no-smooth`, `--no-second-pass`,
/// `--track-threshold`), and how they combine with the detection threshold into a
/// `TrackerConfiguration`.
///
/// Two thresholds: the reporting threshold (`--threshold`) is what a detection needs to be
/// reported, anonymised or to continue a track; the track threshold (`--track-threshold`) is what
/// it needs to start one.
///
/// ByteTrack's second pass needs faces below the reporting threshold: the detector is asked for
/// faces down to `detectorThreshold(reportingAt:)` (half the threshold), and those below the
/// threshold only continue tracks that are already confirmed, so the output still respects it.
public struct TrackingSettings: Sendable, Equatable {
    /// Detections in a row before a face gets a track ID.
    public var minHits: Int
    /// Frames a lost face keeps its ID; `nil` is one second of video.
    public var maxAge: Int?
    /// Smooth the drawn boxes (One Euro); the CSV keeps the measured ones.
    public var smoothing: Bool
    /// Match low-confidence detections to confirmed tracks (ByteTrack's second pass).
    public var secondPass: Bool
    /// The confidence a detection needs to start a track (`--track-threshold`); `nil` is the
    /// detector's own default (`DetectorKind.defaultTrackThreshold`), and never below the
    /// reporting threshold.
    public var trackThreshold: Double?
    /// With `--anonymize`: the confidence a face needs to be masked (`--mask-threshold`), at most
    /// the reporting threshold; `nil` is `defaultMaskThreshold(reportingAt:)`. Faces masked only
    /// because of it are listed in no track.
    public var maskThreshold: Double?

    /// Creates settings; the defaults are those of `facetrack process`.
    public init(minHits: Int = 3, maxAge: Int? = nil, smoothing: Bool = true, secondPass: Bool = true,
                trackThreshold: Double? = nil, maskThreshold: Double? = nil) {
        self.maskThreshold = maskThreshold
        self.minHits = minHits
        self.maxAge = maxAge
        self.smoothing = smoothing
        self.secondPass = secondPass
        self.trackThreshold = trackThreshold
    }

    /// The lowest confidence the detector must report: half of `threshold` with the second pass,
    /// lower when masks need it (`masks`: `--anonymize`).
    public func detectorThreshold(reportingAt threshold: Double, masks: Bool = false) -> Double {
        let lowest = secondPass ? threshold / 2 : threshold
        return masks ? min(lowest, maskThreshold(reportingAt: threshold)) : lowest
    }

    /// The mask threshold in force: the one given (never above `threshold`), else half the
    /// reporting threshold, what the detector reports for the second pass anyway (measured:
    /// README, Anonymisation).
    public func maskThreshold(reportingAt threshold: Double) -> Double {
        min(maskThreshold ?? threshold / 2, threshold)
    }

    /// The tracker's configuration for video at `framesPerSecond` (`VideoTiming.assumedFramesPerSecond` when unknown) whose faces
    /// are reported from `threshold` up and start tracks from `trackThreshold` (or
    /// `defaultTrackThreshold`) up.
    public func configuration(framesPerSecond: Double?, threshold: Double, defaultTrackThreshold: Double? = nil)
        -> TrackerConfiguration {
        var configuration = TrackerConfiguration(framesPerSecond: framesPerSecond ?? VideoTiming.assumedFramesPerSecond)
        configuration.minHits = minHits
        if let maxAge { configuration.maxAge = maxAge }
        configuration.smoothing = smoothing
        configuration.secondPass = secondPass
        configuration.highThreshold = threshold
        configuration.lowThreshold = detectorThreshold(reportingAt: threshold)
        configuration.birthThreshold = max(threshold, trackThreshold ?? defaultTrackThreshold ?? threshold)
        return configuration
    }
}
