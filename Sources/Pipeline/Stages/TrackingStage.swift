import Dispatch
import FaceCore

/// Serial stage: tracking (or plain per-frame faces without a tracker), per-track decisions such
/// as attribute hysteresis, then every per-frame output (CSV, MOT, landmarks), in frame order.
final class TrackingStage: FrameStage {
    private let queue = DispatchQueue(label: "facetrack.track")
    /// `@unchecked Sendable`: the tracker and the face processor are used on `queue` only.
    private struct SerialParts: @unchecked Sendable {
        let tracker: FaceTracker?
        let faceProcessor: TrackedFaceProcessor?
        let outputs: [FrameOutput]
    }
    private let parts: SerialParts
    private let state: RunState
    private let next: FrameStage

    init(tracker: FaceTracker?, faceProcessor: TrackedFaceProcessor?, outputs: [FrameOutput], state: RunState,
         next: FrameStage) {
        parts = SerialParts(tracker: tracker, faceProcessor: faceProcessor, outputs: outputs)
        self.state = state
        self.next = next
    }

    func accept(_ job: FrameJob) {
        queue.async { [self] in
            state.attempt { try track(job) }
            next.accept(job)
        }
    }

    private func track(_ job: FrameJob) throws {
        if let tracker = parts.tracker {
            job.faces = tracker.update(frame: job.index, time: job.time, detections: job.detections)
        } else {
            job.faces = (job.detections ?? []).map { TrackedFace(observation: $0, trackID: nil) }
        }
        parts.faceProcessor?.process(&job.faces, frame: job.index)
        state.addFaces(job.faces.count)
        for output in parts.outputs { try output.write(frame: job.index, time: job.time, faces: job.faces) }
    }
}
