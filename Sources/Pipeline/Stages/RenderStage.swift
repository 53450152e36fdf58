import FaceCore
import MediaIO

/// Parallel stage: draws the overlays upright, turns the picture back to its stored orientation
/// and converts it to the encoder's format, on the frame's lane; then back in order. A frame with
/// nothing to draw goes to the encoder as decoded.
final class RenderStage: FrameStage {
    private let lanes: LaneDispatch
    private let renderer: FrameRenderer?
    /// Whether faces that are not written are drawn too (anonymisation hides every face found).
    private let drawsHidden: Bool
    private let encoder: EncodeStage
    private let pool: ImagePool

    init(lanes: [Lane], renderer: FrameRenderer?, drawsHidden: Bool, encoder: EncodeStage, pool: ImagePool, state: RunState) {
        self.lanes = LaneDispatch(lanes: lanes, state: state, next: encoder)
        self.renderer = renderer
        self.drawsHidden = drawsHidden
        self.encoder = encoder
        self.pool = pool
    }

    func accept(_ job: FrameJob) {
        lanes.run(job) { [self] job, lane in try render(job, lane: lane) }
    }

    private func render(_ job: FrameJob, lane: Lane) throws {
        let hidden = drawsHidden ? job.hidden : []
        let draws = renderer != nil && !(job.faces.isEmpty && hidden.isEmpty)
        guard draws || !encoder.acceptsDirectly(job.frame) else { return }
        let upright = try job.uprightImage(converter: lane.converter, pool: pool)
        if draws { renderer?.render(job.faces, hiding: hidden, on: upright) }
        guard let stored = job.storedImage() else { return }
        let output = try encoder.outputFrame()
        try lane.converter.convertFromBGRA(stored, into: output)
        job.output = output
    }
}
