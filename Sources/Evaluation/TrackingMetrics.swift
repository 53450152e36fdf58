import FaceCore

/// CLEAR MOT scores (Bernardin and Stiefelhagen 2008, as the MOT Challenge reports them) and the
/// identity scores of Ristani et al. 2016. Only predicted faces with a track ID are hypotheses;
/// faces without one neither match a truth face nor count as false positives here.
public struct TrackingMetrics: Sendable, Equatable {
    /// Truth faces over all frames.
    public var truthFaces = 0
    /// Predicted faces with a track ID over all frames.
    public var hypotheses = 0
    /// Frame-level matches (truth face to hypothesis).
    public var matches = 0
    /// Summed IoU of the matches.
    public var iouSum = 0.0
    /// Truth faces without a match.
    public var misses = 0
    /// Hypotheses without a match.
    public var falsePositives = 0
    /// Matches whose hypothesis differs from the one the truth track last matched.
    public var idSwitches = 0
    /// Interruptions of a truth track's matched span (tracked, then missed, then tracked again).
    public var fragmentations = 0
    /// Truth tracks matched in at least 80% of their frames.
    public var mostlyTracked = 0
    /// Truth tracks matched in 20% to 80% of their frames.
    public var partiallyTracked = 0
    /// Truth tracks matched in under 20% of their frames.
    public var mostlyLost = 0
    /// Distinct truth track IDs.
    public var truthTracks = 0
    /// Distinct predicted track IDs.
    public var predictedTracks = 0
    /// Identity true positives: frames of the best one-to-one pairing of truth and predicted tracks.
    public var identityTruePositives = 0

    /// Empty counts.
    public init() {}

    /// 1 - (misses + false positives + ID switches) / truth faces; nil without truth faces.
    public var mota: Double? {
        truthFaces > 0 ? 1 - Double(misses + falsePositives + idSwitches) / Double(truthFaces) : nil
    }
    /// Mean IoU of the matches (MOTP as an overlap); nil without matches.
    public var motp: Double? { matches > 0 ? iouSum / Double(matches) : nil }
    /// 2 IDTP / (truth faces + hypotheses); nil when both are zero.
    public var idf1: Double? {
        truthFaces + hypotheses > 0 ? 2 * Double(identityTruePositives) / Double(truthFaces + hypotheses) : nil
    }
    /// IDTP / hypotheses.
    public var idPrecision: Double? { hypotheses > 0 ? Double(identityTruePositives) / Double(hypotheses) : nil }
    /// IDTP / truth faces.
    public var idRecall: Double? { truthFaces > 0 ? Double(identityTruePositives) / Double(truthFaces) : nil }
}
