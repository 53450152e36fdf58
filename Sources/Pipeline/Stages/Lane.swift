import Dispatch
import FaceCore
import MediaIO

/// One worker of the parallel stages: a serial queue with its own converter, detector and analyzer.
/// Frame `i` goes to lane `i % count` in every parallel stage.
///
/// `@unchecked Sendable`: the converter, detector and analyzer keep C pointers and scratch memory
/// that are only used on `queue`.
final class Lane: @unchecked Sendable {
    let queue: DispatchQueue
    let converter = PixelConverter()
    let detector: FaceDetector?
    let analyzer: FaceAnalyzer?
    /// Only touched on `queue`; read after the run.
    var invalidDetections = 0

    init(index: Int, detector: FaceDetector?, analyzer: FaceAnalyzer?) {
        queue = DispatchQueue(label: "facetrack.lane.\(index)")
        self.detector = detector
        self.analyzer = analyzer
    }
}

extension Array where Element == Lane {
    /// The lane that works on `job`.
    func lane(for job: FrameJob) -> Lane { self[job.index % count] }
}
