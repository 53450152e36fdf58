import FaceCore
import MediaIO
import Scheduling

/// One frame on its way through the stages, with everything the stages add to it. It moves from
/// stage to stage as a value: the stage working on a frame holds the only copy that goes on, so
/// no field is shared between threads. (The pictures it refers to, `frame` and the BGRA images,
/// travel with it and are used by one stage at a time.)
struct FrameJob: Sendable {
    /// Place in this run's order of frames, from 0: what the executor orders by.
    let index: Int
    /// The frame's number in the whole video (`index` unless the run reads a span): what outputs write.
    let number: Int
    /// The decoded picture.
    let frame: Frame
    /// Presentation timestamp in the video stream's time base.
    let pts: Int64
    /// Presentation time in seconds.
    let time: Double
    /// How the stored picture must be turned to be upright.
    let orientation: ImageOrientation
    /// The picture in BGRA as stored; the same object as `upright` when no turn is needed.
    private var stored: BGRAImage?
    /// The picture in BGRA, upright: what detectors see and overlays draw on.
    private var upright: BGRAImage?
    /// The shot boundary this frame starts, if any (`ShotMarker`, set before the frame is planned).
    var boundary: ShotBoundary?
    /// With a fade or dissolve: the frame where the transition began (its pictures mix two shots).
    var transitionStart: Int?
    /// The next frame starts a shot, or this is the input's last frame (`ShotMarker`).
    var endsShot = false
    /// The frame's shot, from 0 (set by the tracking stage).
    var shot = 0
    /// What the scheduler decided to look at on this frame (adaptive detection only).
    var plan: FramePlan?
    /// Where the parts of an adaptive plan, run on different lanes, gather their faces.
    var found: FoundFaces?
    /// The detector's faces; `nil` when the detector did not run on this frame.
    var detections: [FaceObservation]?
    /// The faces reported for this frame after tracking (and the look-ahead's decisions).
    var faces: [TrackedFace] = []
    /// Faces found or predicted on this frame that are not reported (tracks never confirmed,
    /// predictions never confirmed, faces in no track): anonymisation hides them too.
    var hidden: [TrackedFace] = []
    /// The picture to encode when overlays were drawn; `nil` means encode `frame` as decoded.
    var output: Frame?

    init(_ decoded: DecodedFrame) {
        index = decoded.position
        number = decoded.index
        frame = decoded.frame
        pts = decoded.pts
        time = decoded.time
        orientation = decoded.orientation
    }

    /// The upright BGRA picture, converted on first use.
    mutating func uprightImage(converter: PixelConverter, pool: ImagePool) throws -> BGRAImage {
        if let upright { return upright }
        let image = pool.acquire(width: frame.width, height: frame.height)
        stored = image
        try converter.convertToBGRA(frame, into: image)
        guard orientation != .up else {
            upright = image
            return image
        }
        let size = orientation.uprightSize(width: image.width, height: image.height)
        let turned = pool.acquire(width: size.width, height: size.height)
        BGRAImage.makeUpright(image, orientation: orientation, into: turned)
        upright = turned
        return turned
    }

    /// The upright picture (after drawing) turned back to the stored orientation, for the encoder.
    /// Call after `uprightImage`.
    func storedImage() -> BGRAImage? {
        guard let upright, let stored else { return nil }
        if orientation != .up { BGRAImage.restoreStored(upright, orientation: orientation, into: stored) }
        return stored
    }

    /// Returns the pictures to the pool once the frame is done.
    mutating func recycle(into pool: ImagePool) {
        releasePictures(into: pool)
        output = nil
    }

    /// Returns the BGRA pictures to the pool early, when no stage before the encoder needs them
    /// (held in the look-ahead window, they cost 3.7 MB a 720p frame); `uprightImage` converts again.
    mutating func releasePictures(into pool: ImagePool) {
        if let stored { pool.release(stored) }
        if let upright, upright !== stored { pool.release(upright) }
        stored = nil
        upright = nil
    }
}

/// How a stage hands a frame to the next one.
typealias FrameHandoff = @Sendable (FrameJob) -> Void
