import FaceCore
import Tracking

/// A file written frame by frame, in frame order, from the tracking stage and closed (renamed
/// into place) only when the whole run succeeds.
protocol FrameOutput: AnyObject {
    /// Appends the faces of one frame.
    func write(frame: Int, time: Double, faces: [TrackedFace]) throws
    /// Completes the file.
    func finish() throws
    /// Whether the file also lists the masked faces that are not reported (tracks CSV and JSON).
    var listsMasks: Bool { get }
}

extension FrameOutput {
    var listsMasks: Bool { false }
}

extension TrackCSVWriter: FrameOutput {
    var listsMasks: Bool { true }

    func write(frame: Int, time: Double, faces: [TrackedFace]) throws {
        try write(frame: frame, time: time, faces: faces, image: nil)
    }
}

extension LandmarkCSVWriter: FrameOutput {
    func write(frame: Int, time: Double, faces: [TrackedFace]) throws {
        try write(frame: frame, faces: faces, image: nil)
    }
}

extension MOTChallengeWriter: FrameOutput {
    func write(frame: Int, time: Double, faces: [TrackedFace]) throws {
        try write(frameIndex: frame, faces: faces)
    }
}
