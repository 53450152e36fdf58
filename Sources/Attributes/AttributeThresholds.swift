/// Decision thresholds for the attribute flags, each a hysteresis band: a flag turns on past one
/// edge and off only past the other, so a score hovering near a single threshold does not flicker.
/// Faces without history (untracked, or a track's first frame) use the band's middle.
/// Defaults come from scripts/calibration (82 hand-labelled faces): the smile band is centred on
/// the best single threshold of the labelled scores (0.92 there); the eye band (iris-model openness)
/// has its middle, 0.17, where the labels have the fewest errors (5 of 6 closed eyes found, 3 of
/// 134 open eyes flagged; see docs/attributes.md). In video, once a track has `eyeHistoryFrames`
/// measurements of an eye, the eye is judged against the track's own typical open value
/// (`EyeBaseline`) with the relative band instead, whatever the person's eye shape.
public struct AttributeThresholds: Sendable, Equatable {
    /// An eye counts as closed once its openness (eye aspect ratio) falls below this.
    public var eyeClosedBelow: Double
    /// A closed eye counts as open again once its openness rises above this.
    public var eyeOpenAbove: Double
    /// A face counts as smiling once its smile score rises above this.
    public var smileAbove: Double
    /// A smiling face counts as neutral again once its smile score falls below this.
    public var smileEndsBelow: Double
    /// Open measurements of an eye a track needs before the relative band replaces the absolute one
    /// (0 turns the relative measure off).
    public var eyeHistoryFrames: Int
    /// With history, an eye counts as closed below this fraction of the track's typical openness.
    public var eyeRelativeClosedBelow: Double
    /// With history, a closed eye counts as open again above this fraction.
    public var eyeRelativeOpenAbove: Double

    /// Creates thresholds; the defaults are the calibrated ones.
    public init(eyeClosedBelow: Double = 0.15, eyeOpenAbove: Double = 0.19,
                smileAbove: Double = 0.95, smileEndsBelow: Double = 0.89, eyeHistoryFrames: Int = 10,
                eyeRelativeClosedBelow: Double = 0.55, eyeRelativeOpenAbove: Double = 0.7) {
        self.eyeClosedBelow = eyeClosedBelow
        self.eyeOpenAbove = eyeOpenAbove
        self.smileAbove = smileAbove
        self.smileEndsBelow = smileEndsBelow
        self.eyeHistoryFrames = eyeHistoryFrames
        self.eyeRelativeClosedBelow = eyeRelativeClosedBelow
        self.eyeRelativeOpenAbove = eyeRelativeOpenAbove
    }
}
