internal import CFFmpeg
import FaceCore

/// What a video's container says about it, without decoding: upright size, frames, duration and
/// frame rate (for a report's header and its check that a tracks CSV belongs to the video).
package struct VideoFacts: Sendable, Equatable {
    /// Upright size in pixels.
    package var width: Int, height: Int
    /// Frames, from the container (may be an estimate from the duration); nil when unknown.
    package var frames: Int?
    /// Seconds; nil when unknown.
    package var duration: Double?
    /// Average frame rate; nil when unknown.
    package var framesPerSecond: Double?
    /// Presentation time of the first frame in seconds (1.4 for a plain MPEG-TS copy, negative
    /// after `-output_ts_offset -10`): the video covers `startTime` to `startTime + duration`.
    package var startTime: Double

    /// Creates facts (tests).
    package init(width: Int, height: Int, frames: Int? = nil, duration: Double? = nil, framesPerSecond: Double? = nil,
                 startTime: Double = 0) {
        self.width = width
        self.height = height
        self.frames = frames
        self.duration = duration
        self.framesPerSecond = framesPerSecond
        self.startTime = startTime
    }

    /// Reads the facts of `path`; one-line errors name it.
    package init(path: String) throws {
        let demuxer = try Demuxer(path: path)
        let stream = demuxer.videoStream.pointee
        var size = (width: Int(stream.codecpar.pointee.width), height: Int(stream.codecpar.pointee.height))
        // A text file named .jpg opens as an image of no size: it is no video.
        guard size.width > 0, size.height > 0 else { throw MediaError.noFrames(path) }
        if let orientation = demuxer.streamOrientation { size = orientation.uprightSize(width: size.width, height: size.height) }
        var duration: Double?
        if stream.duration > 0 {
            duration = Double(stream.duration) * av_q2d(stream.time_base)
        } else if demuxer.context.pointee.duration > 0 {
            duration = Double(demuxer.context.pointee.duration) / Double(AV_TIME_BASE)
        }
        self.init(width: size.width, height: size.height, frames: demuxer.estimatedFrameCount, duration: duration,
                  framesPerSecond: demuxer.framesPerSecond, startTime: demuxer.startTime)
    }
}
