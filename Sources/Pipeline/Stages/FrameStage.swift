/// One step of the pipeline: decode → analyse → track → render → encode.
///
/// A stage takes frames in order, does its work on its own queue (serial stages) or on the
/// frame's lane (parallel stages, which put frames back in order before the next stage), and
/// hands every frame on, also after a failure, so that the last stage can count it as done.
protocol FrameStage: Sendable {
    /// Takes the next frame.
    func accept(_ job: FrameJob)
}
