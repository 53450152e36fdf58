import FaceCore
import MediaIO

/// Parallel stage: draws the overlays upright, turns the picture back to its stored orientation
/// and converts it to the encoder's format, on the frame's lane; then back in order. A frame with
/// nothing to draw goes to the encoder as decoded.
final class RenderStage: FrameStage {
    private let lanes: [Lane]
    private let renderer: FrameRenderer?
    private let encoder: EncodeStage
    private let pool: ImagePool
    private let state: RunState
    private let inOrder: Reorderer<FrameJob>

    init(lanes: [Lane], renderer: FrameRenderer?, encoder: EncodeStage, pool: ImagePool, state: RunState) {
        self.lanes = lanes
        self.renderer = renderer
        self.encoder = encoder
        self.pool = pool
        self.state = state
        inOrder = Reorderer { encoder.accept($0) }
    }

    func accept(_ job: FrameJob) {
        let lane = lanes.lane(for: job)
        lane.queue.async { [self] in
            state.attempt { try render(job, lane: lane) }
            inOrder.submit(job, index: job.index)
        }
    }

    private func render(_ job: FrameJob, lane: Lane) throws {
        let draws = renderer != nil && !job.faces.isEmpty
        guard draws || !encoder.acceptsDirectly(job.frame) else { return }
        let upright = try job.uprightImage(converter: lane.converter, pool: pool)
        if draws { renderer?.render(job.faces, on: upright) }
        guard let stored = job.storedImage() else { return }
        let output = try encoder.outputFrame()
        try lane.converter.convertFromBGRA(stored, into: output)
        job.output = output
    }
}
