import FaceCore
import Tracking

/// A file written frame by frame, in frame order, from the tracking stage and closed (renamed
/// into place) only when the whole run succeeds.
protocol FrameOutput: AnyObject {
    /// Appends the faces of one frame.
    func write(frame: Int, time: Double, faces: [TrackedFace]) throws
    /// Completes the file.
    func finish() throws
}

extension TrackCSVWriter: FrameOutput {
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

/// `--tracks-summary`: written once at the end from the tracker's summary.
final class TrackSummaryOutput: FrameOutput {
    private let path: String
    private let inputs: [String]
    private let tracker: Tracker

    /// Checks the path up front (an input, an unwritable folder) so the error comes before any frame.
    init(path: String, inputs: [String], tracker: Tracker) throws {
        _ = try AtomicOutput(path: path, inputs: inputs)
        self.path = path
        self.inputs = inputs
        self.tracker = tracker
    }

    func write(frame: Int, time: Double, faces: [TrackedFace]) throws {}

    func finish() throws {
        try TrackSummaryWriter.write(tracker.summary, to: path, inputs: inputs)
    }
}
