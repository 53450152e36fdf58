/// Timing assumptions shared by every module.
public enum VideoTiming {
    /// The frame rate assumed when a video states none (and the rate of a still image's one frame):
    /// it sizes one second of frames (a lost track's age, the scheduler's keyframe interval) and
    /// one frame's duration where timestamps repeat.
    public static let assumedFramesPerSecond = 30.0
}
