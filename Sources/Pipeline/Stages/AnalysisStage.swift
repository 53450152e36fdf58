import FaceCore

/// Parallel stage: converts the frame to upright BGRA (only when something will look at the
/// pixels), runs the detector and the analyzer, on the frame's lane; then back in order.
final class AnalysisStage: FrameStage {
    private let lanes: [Lane]
    private let detection: DetectionPlan
    private let pool: ImagePool
    private let state: RunState
    private let inOrder: Reorderer<FrameJob>

    init(lanes: [Lane], detection: DetectionPlan, pool: ImagePool, state: RunState, next: FrameStage) {
        self.lanes = lanes
        self.detection = detection
        self.pool = pool
        self.state = state
        inOrder = Reorderer { next.accept($0) }
    }

    func accept(_ job: FrameJob) {
        let lane = lanes.lane(for: job)
        lane.queue.async { [self] in
            state.attempt { try analyse(job, lane: lane) }
            inOrder.submit(job, index: job.index)
        }
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
