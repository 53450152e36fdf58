/// Raw attribute measures of one face, before any threshold: what a `FaceAnalyzer` measures and a
/// `TrackedFaceProcessor` turns into the `hasSmile` / eye-closed flags.
public struct FaceAttributeScores: Sendable, Equatable {
    /// Eye aspect ratio (mean lid opening over corner distance) of the eye on the image's left
    /// (the subject's right eye); from the iris model's lids 0.06-0.19 on the closed and 0.1-0.4 on
    /// the open eyes measured in calibration (docs/attributes.md). `nil` when not measured.
    public var leftEyeOpenness: Double?
    /// Eye aspect ratio of the eye on the image's right (the subject's left eye).
    public var rightEyeOpenness: Double?
    /// Smile score: higher is more of a smile (see the analyzer for its scale). `nil` when not measured.
    public var smile: Double?

    /// Creates scores; unmeasured ones stay `nil`.
    public init(leftEyeOpenness: Double? = nil, rightEyeOpenness: Double? = nil, smile: Double? = nil) {
        self.leftEyeOpenness = leftEyeOpenness
        self.rightEyeOpenness = rightEyeOpenness
        self.smile = smile
    }
}
