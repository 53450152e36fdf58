internal import CFFmpeg
import FaceCore

/// Picks single frames out of a video by time, seeking to the keyframe before each one instead of
/// decoding the whole file (`facetrack report`'s thumbnails: 50 frames of an hour of video).
///
/// Times are what the pipeline reports (`pts * time_base`, no start offset) and pictures are
/// upright, so boxes from a tracks CSV fall on the face. Ask in increasing time order: a target a
/// little ahead of the last frame is reached by decoding on, without a seek.
package final class FrameSeeker {
    private var demuxer: Demuxer
    private var decoder: VideoDecoder
    private let converter = PixelConverter()
    private let packet = Packet()
    private var stored: BGRAImage?
    private var decodedLastFrame: Frame?
    /// Presentation time of the last decoded frame (seconds); nil after a seek or at the start.
    private var lastTime: Double?
    private var endOfFile = false
    private let frameDuration: Double
    /// Seeks done so far (a benchmark shows the seek, not a full decode, did the work).
    package private(set) var seeks = 0
    /// Frames decoded so far.
    package private(set) var decodedFrames = 0

    /// Opens `path` for reading single frames.
    package init(path: String) throws {
        demuxer = try Demuxer(path: path)
        // One thread: frame threading only delays the first frame after each seek.
        decoder = try VideoDecoder(demuxer: demuxer, threads: 1)
        frameDuration = 1 / (demuxer.framesPerSecond ?? VideoTiming.assumedFramesPerSecond)
    }

    /// The video's path.
    package var path: String { demuxer.path }

    /// The upright picture of the first frame at or after `time` (within half a frame), or the last
    /// frame of the file when `time` is past its end; nil when no frame can be decoded there.
    package func uprightImage(at time: Double) throws -> BGRAImage? {
        let tolerance = frameDuration / 2
        // The frame decoded last may be the one asked for again (two tracks' best frame, or a
        // CSV time rounded a little past the frame's): decoding on would give the next one.
        if let last = lastTime, let frame = decodedLastFrame, abs(time - last) < tolerance {
            return try upright(frame)
        }
        // Decoding on is cheaper than seeking while the target is less than two seconds ahead.
        let ahead = lastTime.map { time > $0 && time - $0 < 2 } ?? false
        if !ahead || endOfFile { try seek(to: time) }
        while let decoded = try nextFrame() {
            if decoded.time >= time - tolerance { return try upright(decoded.frame) }
        }
        // Past the end: the last frame decoded after the seek, if any.
        return try decodedLastFrame.map(upright)
    }

    /// Moves to the keyframe at or before `time`; reopens the file when the container cannot seek
    /// (still images, some raw streams), which decodes from the start instead.
    private func seek(to time: Double) throws {
        let timeBase = demuxer.videoTimeBase
        let target = Int64((time / av_q2d(timeBase)).rounded(.down))
        seeks += 1
        if av_seek_frame(demuxer.context, Int32(demuxer.videoStreamIndex), target, AVSEEK_FLAG_BACKWARD) < 0 {
            demuxer = try Demuxer(path: demuxer.path)
            decoder = try VideoDecoder(demuxer: demuxer, threads: 1)
        } else {
            avcodec_flush_buffers(decoder.context)
        }
        lastTime = nil
        endOfFile = false
        decodedLastFrame = nil
    }

    /// The next decoded frame and its time; nil at the end of the file.
    private func nextFrame() throws -> (frame: Frame, time: Double)? {
        while true {
            let next = Frame()
            if try decoder.receive(into: next) {
                var pts = next.pointer.pointee.best_effort_timestamp
                if pts == ft_nopts_value() {
                    pts = Int64(((lastTime.map { $0 + frameDuration } ?? 0) / av_q2d(demuxer.videoTimeBase)).rounded())
                }
                let time = Double(pts) * av_q2d(demuxer.videoTimeBase)
                lastTime = time
                decodedFrames += 1
                decodedLastFrame = next
                return (next, time)
            }
            if endOfFile { return nil }
            if try demuxer.readPacket(into: packet) {
                if packet.streamIndex == demuxer.videoStreamIndex { try decoder.send(packet) }
            } else {
                endOfFile = true
                try decoder.send(nil)
            }
        }
    }

    /// The frame in BGRA, turned upright as the pipeline turns it.
    private func upright(_ frame: Frame) throws -> BGRAImage {
        if stored?.width != frame.width || stored?.height != frame.height {
            stored = BGRAImage(width: frame.width, height: frame.height)
        }
        let image = stored!
        try converter.convertToBGRA(frame, into: image)
        let orientation = demuxer.orientation(of: frame)
        guard orientation != .up else { return image.copy() }
        let size = orientation.uprightSize(width: image.width, height: image.height)
        let turned = BGRAImage(width: size.width, height: size.height)
        BGRAImage.makeUpright(image, orientation: orientation, into: turned)
        return turned
    }
}
