import FaceCore
import MediaIO
import Rendering
import Synchronization

/// Parallel stage: draws the overlays on the frame's lane, then back in order. Overlays are drawn
/// straight onto the YUV planes the encoder takes, in the stored orientation (geometry is mapped,
/// the picture never turned): on the decoded frame itself when the encoder takes it as it is,
/// else on the frame converted by one libswscale call. A frame with nothing to draw goes to the
/// encoder as decoded. Only renderers other than `OverlayRenderer` (a library user's own) and
/// pictures `YUVImage` cannot describe take the BGRA round trip.
final class RenderStage: Sendable {
    private let lanes: InOrderLanes<Lane, FrameJob>
    private let renderer: FrameRenderer?
    /// The YUV renderer for the last encoding seen (colours are converted once per encoding).
    private let yuvRenderer: Mutex<YUVOverlayRenderer?>
    /// Whether faces that are not written are drawn too (anonymisation hides every face found).
    private let drawsHidden: Bool
    /// The encoder's frames, for pictures it cannot take as decoded.
    private let frames: OutputFramePool
    private let pool: ImagePool
    private let clock: StageClock

    /// Draws on the frames from frame `first` on, handing them to `next` in order.
    init(lanes: LanePool<Lane>, renderer: FrameRenderer?, drawsHidden: Bool, frames: OutputFramePool, pool: ImagePool,
         state: RunState, clock: StageClock, first: Int = 0, next: @escaping FrameHandoff) {
        self.lanes = InOrderLanes(pool: lanes, run: state, first: first, next: next)
        self.renderer = renderer
        self.drawsHidden = drawsHidden
        self.frames = frames
        self.pool = pool
        yuvRenderer = Mutex(nil)
        self.clock = clock
    }

    func accept(_ job: FrameJob) {
        lanes.submit(job, index: job.index) { [self] job, lane in try render(&job, lane: lane) }
    }

    private func render(_ job: inout FrameJob, lane: Lane) throws {
        let hidden = drawsHidden ? job.hidden : []
        let draws = renderer != nil && !(job.faces.isEmpty && hidden.isEmpty)
        let direct = frames.acceptsDirectly(job.frame)
        guard draws || !direct else { return }
        let overlay = renderer as? OverlayRenderer
        if overlay != nil || !draws {
            let target: Frame
            if direct {
                try clock.time(.convert) { try job.frame.makeWritable() }
                target = job.frame
            } else {
                target = try frames.take()
                try clock.time(.convert) { try lane.converter.convert(job.frame, into: target) }
                job.output = target
            }
            guard let overlay, draws else { return }
            if let image = target.yuvImage {
                let renderer = yuv(overlay, for: image.encoding)
                clock.time(.render) { renderer.render(job.faces, hiding: hidden, on: image, orientation: job.orientation) }
                return
            }
            job.output = nil
        }
        // The BGRA round trip.
        let upright = try clock.time(.convert) { try job.uprightImage(converter: lane.converter, pool: pool) }
        clock.time(.render) { renderer?.render(job.faces, hiding: hidden, on: upright) }
        guard let stored = clock.time(.convert, { job.storedImage() }) else { return }
        let output = try frames.take()
        try clock.time(.convert) { try lane.converter.convertFromBGRA(stored, into: output) }
        job.output = output
    }

    private func yuv(_ overlay: OverlayRenderer, for encoding: YUVEncoding) -> YUVOverlayRenderer {
        yuvRenderer.withLock { cached in
            if let cached, cached.encoding == encoding { return cached }
            let made = YUVOverlayRenderer(configuration: overlay.configuration, encoding: encoding)
            cached = made
            return made
        }
    }
}
