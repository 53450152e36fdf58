import FaceCore
import MediaIO

/// One lane's worker for the parallel stages (`LanePool<Lane>`): its own converter, sampler,
/// detector and analyzer, which keep C pointers and scratch memory and are used on the lane's
/// queue only, by one piece of work at a time.
struct Lane {
    let converter = PixelConverter()
    let sampler = FrameSampler()
    let detector: FaceDetector?
    let analyzer: FaceAnalyzer?
    /// Detections dropped for NaN, infinite or non-positive boxes, read after the run.
    var invalidDetections = 0

    init(detector: FaceDetector?, analyzer: FaceAnalyzer?) {
        self.detector = detector
        self.analyzer = analyzer
    }
}
