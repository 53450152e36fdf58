/// Turns per-frame detections into tracks with stable IDs. Called once per frame, in frame order,
/// from one thread.
public protocol FaceTracker: AnyObject {
    /// Advances to frame `frame` (presentation time `time` in seconds). `detections` is `nil` when
    /// the detector did not run on this frame (`--detect-every`), so the tracker predicts instead.
    /// Returns the faces to report for this frame.
    func update(frame: Int, time: Double, detections: [FaceObservation]?) -> [TrackedFace]

    /// How many tracks have been confirmed so far.
    var confirmedTrackCount: Int { get }

    /// The most frames any confirmed track has covered so far.
    var longestTrackFrameCount: Int { get }
}

/// Draws overlays for the faces of one frame onto the upright BGRA image. Called concurrently for
/// different frames, so implementations keep no mutable state.
public protocol FrameRenderer: Sendable {
    /// Draws `faces` onto `image` in place; `hidden` faces (found but not listed, such as tracks
    /// never confirmed) are only anonymised.
    func render(_ faces: [TrackedFace], hiding hidden: [TrackedFace], on image: BGRAImage)
}

extension FrameRenderer {
    /// Draws `faces` onto `image` in place.
    public func render(_ faces: [TrackedFace], on image: BGRAImage) { render(faces, hiding: [], on: image) }
}
