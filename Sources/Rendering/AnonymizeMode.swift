/// How faces are hidden (`--anonymize`). The region is an ellipse around each face box, scaled by
/// the mask scale about the box centre.
public enum AnonymizeMode: String, CaseIterable, Sendable {
    /// A strong blur: a separable box blur run three times (close to a Gaussian).
    case blur
    /// Large uniform blocks, each the average colour of the frame under it.
    case pixelate
    /// A solid colour.
    case fill

    /// Reads a mode name, case-insensitive.
    public init(parsing text: String) throws(RenderingError) {
        guard let mode = AnonymizeMode(rawValue: Substring(text).trimmingSpaces().lowercased()) else {
            throw .unknownAnonymizeMode(text)
        }
        self = mode
    }
}
