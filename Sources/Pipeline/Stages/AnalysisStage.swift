import FaceCore

/// Parallel stage: converts the frame to upright BGRA (only when something will look at the
/// pixels), runs the detector and the analyzer, on the frame's lane; then back in order.
final class AnalysisStage: FrameStage {
    private let lanes: LaneDispatch
    private let detection: DetectionPlan
    private let pool: ImagePool

    init(lanes: [Lane], detection: DetectionPlan, pool: ImagePool, state: RunState, next: FrameStage) {
        self.lanes = LaneDispatch(lanes: lanes, state: state, next: next)
        self.detection = detection
        self.pool = pool
    }

    func accept(_ job: FrameJob) {
        lanes.run(job) { [self] job, lane in try analyse(job, lane: lane) }
    }

    private func analyse(_ job: FrameJob, lane: Lane) throws {
        guard let detector = lane.detector, job.index % detection.every == 0 else { return }
        let upright = try job.uprightImage(converter: lane.converter, pool: pool)
        var faces = try detector.detect(in: upright)
        let before = faces.count
        faces.removeAll { !$0.isValid }
        lane.invalidDetections += before - faces.count
        faces.sort { $0.confidence > $1.confidence }
        if let limit = detection.maxFaces, faces.count > limit { faces.removeLast(faces.count - limit) }
        try lane.analyzer?.analyze(&faces, in: upright)
        job.detections = faces
    }
}

/// When and how much the analysis stage detects.
struct DetectionPlan: Sendable {
    /// Detect on every Nth frame (1 = every frame).
    var every: Int
    /// Keep the N most confident faces.
    var maxFaces: Int?
}
