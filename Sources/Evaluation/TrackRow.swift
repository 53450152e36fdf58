import FaceCore

/// One face in one frame, as read from a tracks or truth CSV.
public struct TrackRow: Sendable, Equatable {
    /// Frame index.
    public var frame: Int
    /// Track ID; nil for a face that no track owns.
    public var trackID: Int?
    /// The face box in pixels.
    public var box: Rect
    /// Detection confidence (1 in the truth).
    public var confidence: Double
    /// Eye on the image's left, when known.
    public var leftEye: Point?
    /// Eye on the image's right, when known.
    public var rightEye: Point?
    /// The 1-based line of the file it came from (0 when made in code).
    public var line: Int
    /// A truth face no evaluation should count (source `ignore`: mostly hidden or out of the
    /// picture): predictions on it are neither matches nor false positives, and missing it is no miss.
    public var ignored: Bool

    /// Creates a row.
    public init(frame: Int, trackID: Int?, box: Rect, confidence: Double = 1, leftEye: Point? = nil,
                rightEye: Point? = nil, line: Int = 0, ignored: Bool = false) {
        self.frame = frame
        self.trackID = trackID
        self.box = box
        self.confidence = confidence
        self.leftEye = leftEye
        self.rightEye = rightEye
        self.line = line
        self.ignored = ignored
    }
}
