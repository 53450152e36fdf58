/// Decision thresholds for the attribute flags, each a hysteresis band: a flag turns on past one
/// edge and off only past the other, so a score hovering near a single threshold does not flicker.
/// Faces without history (untracked, or a track's first frame) use the band's middle.
/// Defaults come from scripts/calibration (82 hand-labelled faces): the smile band is centred on
/// the best single threshold of the labelled scores (0.92 there); the eye band lies below every open
/// eye measured (lowest 0.199), since the plain mesh model hardly closes its lids (see docs/attributes.md).
public struct AttributeThresholds: Sendable, Equatable {
    /// An eye counts as closed once its openness (eye aspect ratio) falls below this.
    public var eyeClosedBelow: Double
    /// A closed eye counts as open again once its openness rises above this.
    public var eyeOpenAbove: Double
    /// A face counts as smiling once its smile score rises above this.
    public var smileAbove: Double
    /// A smiling face counts as neutral again once its smile score falls below this.
    public var smileEndsBelow: Double

    /// Creates thresholds; the defaults are the calibrated ones.
    public init(eyeClosedBelow: Double = 0.15, eyeOpenAbove: Double = 0.19,
                smileAbove: Double = 0.95, smileEndsBelow: Double = 0.89) {
        self.eyeClosedBelow = eyeClosedBelow
        self.eyeOpenAbove = eyeOpenAbove
        self.smileAbove = smileAbove
        self.smileEndsBelow = smileEndsBelow
    }
}
