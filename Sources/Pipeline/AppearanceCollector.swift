import FaceCore
import Identity

/// Collects the frames on which a known person's track is written into time ranges
/// (`facetrack find`), from the tracking stage, in frame order.
final class AppearanceCollector: FrameOutput {
    private(set) var ranges = AppearanceRanges(maximumGap: 1, minimumDuration: 0)
    private var lastTime: Double?
    /// The frame duration, from the last two frames (one frame at the assumed rate until then).
    private var step = 1 / VideoTiming.assumedFramesPerSecond

    func write(frame: Int, time: Double, faces: [TrackedFace]) throws {
        guard time.isFinite else { return }
        if let lastTime, time > lastTime { step = time - lastTime }
        lastTime = time
        let distances = faces.compactMap { $0.person != nil ? $0.personDistance : nil }
        if let distance = distances.min() { ranges.add(time: time, duration: step, distance: distance) }
    }

    func finish() throws {}
}
