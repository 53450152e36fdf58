/// One face found in one frame: what a detector returns, and what the CSV writes.
///
/// Coordinates are pixels in the upright (display) frame, top-left origin. As in Core Image's
/// `CIFaceFeature`, `leftEye` is the eye on the image's left for an upright face, which is the
/// subject's right eye. Every optional field stays `nil` when the detector does not provide it.
public struct FaceObservation: Sendable, Equatable {
    /// The face box.
    public var bounds: Rect
    /// Detector confidence in [0, 1].
    public var confidence: Double
    /// Centre of the eye on the image's left (the subject's right eye).
    public var leftEye: Point?
    /// Centre of the eye on the image's right (the subject's left eye).
    public var rightEye: Point?
    /// Centre of the mouth.
    public var mouth: Point?
    /// Tip of the nose.
    public var nose: Point?
    /// Ear on the image's left (the subject's right ear).
    public var leftEar: Point?
    /// Ear on the image's right (the subject's left ear).
    public var rightEar: Point?
    /// Whether the face smiles.
    public var hasSmile: Bool?
    /// Whether the eye on the image's left is closed.
    public var leftEyeClosed: Bool?
    /// Whether the eye on the image's right is closed.
    public var rightEyeClosed: Bool?
    /// In-plane rotation in degrees: the angle of the line from the image-left eye to the
    /// image-right eye, positive when that line turns clockwise on screen (y points down).
    public var roll: Double?
    /// Head turn in degrees, positive when the subject turns to their left.
    public var yaw: Double?
    /// Raw attribute measures from a `FaceAnalyzer` (eye openness, smile score), turned into the
    /// flags above by a `TrackedFaceProcessor`; `nil` when no analyzer measured this face.
    public var attributeScores: FaceAttributeScores?
    /// Dense landmarks from a `FaceAnalyzer` (the 468 points of MediaPipe's face mesh, frame
    /// pixels, mesh order), for `--landmarks` export; `nil` when not measured.
    public var landmarks: [Point]?
    /// Which detection pass found the face: `.detected` (a whole-frame pass, and every detector's
    /// own output), `.refined` (a crop around a tracked face) or `.tile` (a full-resolution tile).
    public var source: ObservationSource = .detected
    /// The highest confidence among the passes that looked straight at the face: the whole frame,
    /// a tile, a close-up, or a crop made around this face. A crop made around another face sees
    /// it off-centre and at that face's scale, where a cushion or a lock of hair can pass for a
    /// face (0 when only such crops found it). `nil` when every pass looked straight at it (a
    /// detector run on its own).
    package var directConfidence: Double?

    /// Creates an observation with a box and a confidence; landmarks and attributes can be set afterwards.
    public init(bounds: Rect, confidence: Double) {
        self.bounds = bounds
        self.confidence = confidence
    }

    /// True when the box and confidence are finite and the box has a positive size.
    public var isValid: Bool { bounds.isValid && confidence.isFinite }
}

/// Where a row comes from: which detection pass found the face, or the tracker's prediction
/// (the CSV's `source` column).
public enum ObservationSource: String, Sendable {
    /// A whole-frame detection pass found the face on this frame.
    case detected
    /// A crop around the face's predicted box found it (a tracked face, looked at closely).
    case refined
    /// A full-resolution tile of the frame found it (a face too small for the whole-frame pass).
    case tile
    /// The detector did not run (or missed); the tracker filled the frame in.
    case predicted
    /// With `--anonymize`: a detection masked but not reported (a track not yet confirmed, a face
    /// in no track). Only the tracks CSV and JSON say it; the tracker never sees it.
    case tentative

    /// True for the passes of a detector (every case but `predicted`).
    public var isDetection: Bool { self != .predicted }
}

/// A face on one frame after tracking: the observation plus its track.
public struct TrackedFace: Sendable, Equatable {
    /// The measured (or predicted) face, as written to the CSV.
    public var observation: FaceObservation
    /// The track's identifier (1, 2, 3… in order of confirmation), or `nil` before confirmation.
    public var trackID: Int?
    /// How many frames this track has been seen in so far, this one included.
    public var trackFrameCount: Int
    /// Where the row comes from.
    public var source: ObservationSource
    /// A smoothed copy of the observation for drawing; equals `observation` when smoothing is off.
    public var display: FaceObservation
    /// The tracker's own number for the track, set from its first frame on (tentative tracks
    /// included); 0 for a face in no track.
    package var trackSerial = 0
    /// The known person (`--known`) this face's track was recognised as; nil for a stranger or
    /// when no one is known.
    package var person: String?
    /// The distance from the track's embeddings to that person's closest photo.
    package var personDistance: Float?
    /// Whether anonymisation hides this face: false only for a face `--keep` keeps or `--only`
    /// leaves visible.
    package var masked = true
    /// Frames since (or, for a box interpolated across a gap, until) the nearest frame a detector
    /// found this face; 0 for a detection. Masks of faces not seen grow with it (`MaskRegion`).
    package var unseenFrames = 0
    /// For a face not seen on its frame: how far its box moves per frame, as a share of its height,
    /// in the forecast or interpolation that placed it. A faster face's mask grows faster.
    package var unseenSpeed = 0.0
    /// A predicted face whose crop the scheduler skipped on this frame (a steady face, looked at
    /// every other frame): not missed, and placed between the detections on both sides.
    package var cropSkipped = false
    /// The region its anonymisation mask is drawn in (`MaskRegion`), once decided for output; nil
    /// until then (the renderer then computes it from `display`).
    package var maskRegion: Rect?
    /// The shot this face's frame belongs to (0 from the first frame, one more after each shot
    /// boundary); nil for a still image.
    package var shot: Int?
    /// How the face compares with the truth in a visual diff (`facetrack render --truth`); nil
    /// outside one.
    package var diffMark: DiffMark?

    /// Creates a tracked face; `display` defaults to the observation itself.
    public init(observation: FaceObservation, trackID: Int?, trackFrameCount: Int = 1,
                source: ObservationSource? = nil, display: FaceObservation? = nil) {
        self.observation = observation
        self.trackID = trackID
        self.trackFrameCount = trackFrameCount
        self.source = source ?? observation.source
        self.display = display ?? observation
    }
}

/// How a face of a visual diff (`facetrack render --truth`) compares with the truth, by the
/// matching `facetrack eval` counts with.
package enum DiffMark: Sendable, Equatable {
    /// A prediction paired with a truth face.
    case matched
    /// A prediction paired with a truth face that matched the track `from` before: an ID switch,
    /// marked on the frame where it happens.
    case switched(from: Int)
    /// A truth face no prediction matched (the face drawn is the truth's; `trackID` is the truth's ID).
    case missed
    /// A prediction with a track ID that matched no truth face.
    case falseDetection
    /// A prediction that is not scored: it has no track ID, or it lies on a face the truth ignores.
    case notScored
}
