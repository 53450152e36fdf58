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
    /// Mouth centre, when known.
    public var mouth: Point?
    /// The region the run drew this face's mask in, before `--mask-scale` (the `mask_*` columns of
    /// an `--anonymize` run's tracks CSV); nil when the file does not say.
    public var mask: Rect?
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

    /// The region a mask is drawn in for this row: the file's own, else the head around the box
    /// (`MaskRegion`, as the renderer finds it for a face seen on its frame).
    public var maskRegion: Rect {
        mask ?? MaskRegion.head(of: box, leftEye: leftEye, rightEye: rightEye, mouth: mouth)
    }
}
