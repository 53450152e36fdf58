internal import CFFmpeg
import FaceCore

/// One decoded picture of the video stream, numbered and timed.
package struct DecodedFrame: Sendable {
    /// Decoded frame number, from 0.
    package let index: Int
    /// The picture as stored (turned by `orientation`).
    package let frame: Frame
    /// Presentation timestamp in the input stream's time base: what `VideoWriter.write` takes.
    package let pts: Int64
    /// Presentation time in seconds.
    package let time: Double
    /// How the stored picture must be turned to be upright.
    package let orientation: ImageOrientation
}

/// A stretch of a video to read, its frames numbered as in the whole file: decoding starts at a
/// key frame (`KeyframeIndex`), frames shown before `firstPTS` are dropped (the leading pictures
/// of an open GOP), the first frame kept gets the number `firstIndex`, and reading stops after
/// `frameCount` frames. Audio is not read. A segment of a split plan is one; `--start` can be
/// another (a key frame at or before the start, `firstPTS` the start).
package struct ReadSpan: Sendable, Equatable {
    /// The key frame decoding starts at: its presentation timestamp (the stream's time base).
    package var keyframePTS: Int64
    /// Its decoding timestamp, when known (what containers seek by).
    package var keyframeDTS: Int64?
    /// Frames shown before this timestamp are decoded but not handed out.
    package var firstPTS: Int64
    /// The number of the first frame handed out.
    package var firstIndex: Int
    /// Frames handed out at most; nil reads to the end of the file.
    package var frameCount: Int?
    /// The first frame handed out must be at `firstPTS` exactly, or reading fails (a plan made
    /// for another file, or a file changed since).
    package var exactStart = true

    /// A span starting at a key frame that is itself the first frame wanted.
    package init(keyframePTS: Int64, keyframeDTS: Int64?, firstIndex: Int, frameCount: Int?) {
        self.keyframePTS = keyframePTS
        self.keyframeDTS = keyframeDTS
        firstPTS = keyframePTS
        self.firstIndex = firstIndex
        self.frameCount = frameCount
    }
}

/// Reads a video file as decoded frames (numbered from 0, timestamps filled in where the file has
/// none, orientation from the stream's or the frame's display matrix) and its audio packets, in
/// file order. Owns the demuxer and the frame-threaded decoder. Used from one thread.
///
/// A demuxing error ends the input early (`readError` says where); a decoding error throws.
package final class VideoReader {
    /// What `next()` hands out.
    package enum Item {
        /// A decoded video frame.
        case frame(DecodedFrame)
        /// An audio packet, to copy into an output unchanged.
        case audio(Packet)
    }

    let demuxer: Demuxer
    let decoder: VideoDecoder
    private let packet = Packet()
    /// One frame in the stream's time base, to number frames without a timestamp.
    private let frameDuration: Int64
    private var lastPTS = Int64.min
    /// No more packets are read; the decoder gives what it holds.
    private var stopped = false
    /// The decoder was told the input ended.
    private var flushed = false
    /// Frames handed out so far.
    package private(set) var frameCount = 0
    /// Why reading broke off before the end of the file, if it did (the frames read are kept).
    package private(set) var readError: String?
    /// The stretch read; nil for the whole file.
    package let span: ReadSpan?
    /// The span's key frame, read while seeking: the decoder's first packet.
    private var keyframe: Packet?

    /// Opens `path` (one-line `MediaError`s name it) and its video decoder with `threads` threads
    /// (0 lets FFmpeg choose); with a `span`, moves to its key frame first (seeking, or reading
    /// from the start when the container cannot seek there).
    package init(path: String, threads: Int = 0, span: ReadSpan? = nil) throws {
        var demuxer = try Demuxer(path: path)
        if let span {
            keyframe = try demuxer.seekToKeyframe(pts: span.keyframePTS, dts: span.keyframeDTS, seeking: true)
            if keyframe == nil {
                demuxer = try Demuxer(path: path)
                keyframe = try demuxer.seekToKeyframe(pts: span.keyframePTS, dts: span.keyframeDTS, seeking: false)
            }
            guard keyframe != nil else {
                throw MediaError.notSplittable(path, reason: "no key frame at timestamp \(span.keyframePTS) "
                                               + "(the plan was made for another file, or the file changed)")
            }
        }
        self.span = span
        decoder = try VideoDecoder(demuxer: demuxer, threads: threads)
        frameDuration = demuxer.frameRate.map { av_rescale_q(1, av_inv_q($0), demuxer.videoTimeBase) } ?? 1
        self.demuxer = demuxer
    }

    /// The path given to `init`.
    package var path: String { demuxer.path }
    /// The average frame rate, if the file states one.
    package var framesPerSecond: Double? { demuxer.framesPerSecond }
    /// True for a still-image file (jpg, png...), read as a one-frame video.
    package var isStillImage: Bool { demuxer.isStillImage }
    /// The number of frames, from the container (or the span); `nil` when unknown.
    package var estimatedFrameCount: Int? {
        guard let span else { return demuxer.estimatedFrameCount }
        return span.frameCount ?? demuxer.estimatedFrameCount.map { max(0, $0 - span.firstIndex) }
    }
    /// The number the first frame handed out gets (0, or the span's first frame).
    package var firstIndex: Int { span?.firstIndex ?? 0 }
    /// The video's picture size as stored.
    package var pictureSize: (width: Int, height: Int)? { demuxer.pictureSize }
    /// Packets the decoder rejected as damaged (skipped).
    package var damagedPackets: Int { decoder.damagedPackets }
    /// Frames the decoder marked as corrupt (kept, with concealed errors).
    package var corruptFrames: Int { decoder.corruptFrames }

    /// The next frame or audio packet; `nil` at the end of the input (or, after `stopReading()`,
    /// once the decoder has given the frames it holds).
    package func next() throws -> Item? {
        if let limit = span?.frameCount, frameCount >= limit { return nil }
        if let keyframe {
            self.keyframe = nil
            try decoder.send(keyframe)
        }
        while true {
            let frame = Frame()
            if try decoder.receive(into: frame) {
                guard let span else { return .frame(numbered(frame)) }
                if let decoded = try kept(frame, span: span) { return .frame(decoded) }
                continue
            }
            if flushed { return nil }
            if stopped {
                try flush()
                continue
            }
            let more: Bool
            do {
                more = try demuxer.readPacket(into: packet)
            } catch let error as FFmpegError {
                readError = "stopped reading after \(frameCount) frames: \(error.message)"
                try flush()
                continue
            }
            guard more else {
                try flush()
                continue
            }
            if packet.streamIndex == demuxer.videoStreamIndex {
                try decoder.send(packet)
            } else if span == nil {
                let copy = Packet()
                av_packet_move_ref(copy.pointer, packet.pointer)
                return .audio(copy)
            }
        }
    }

    /// Reads no more packets: `next()` hands out the frames the decoder still holds, then `nil`.
    package func stopReading() { stopped = true }

    /// After reading: a note when the file was cut short (an I/O error, or fewer frames or less
    /// time than the container states), `lastFrameTime` being the last frame's time in seconds.
    package func endedEarly(lastFrameTime: Double?) -> String? {
        guard let span else { return demuxer.endedEarly(framesRead: frameCount, lastFrameTime: lastFrameTime) }
        guard let limit = span.frameCount, frameCount < limit else { return nil }
        return "file ends early: \(frameCount) of the \(limit) frames from frame \(span.firstIndex) (truncated or changed)"
    }

    /// A decoded frame of the span, numbered; nil for a frame shown before its start.
    private func kept(_ frame: Frame, span: ReadSpan) throws -> DecodedFrame? {
        let pts = frame.pointer.pointee.best_effort_timestamp
        if pts != ft_nopts_value(), pts < span.firstPTS { return nil }
        if frameCount == 0, span.exactStart, pts != span.firstPTS {
            throw MediaError.notSplittable(path, reason: "the first frame decoded from the key frame is at timestamp \(pts), "
                                           + "not \(span.firstPTS) (the plan was made for another file, or the file changed)")
        }
        return numbered(frame)
    }

    private func flush() throws {
        try decoder.send(nil)
        flushed = true
    }

    /// Numbers a decoded frame, fills a missing timestamp from the frame rate and reads its orientation.
    private func numbered(_ frame: Frame) -> DecodedFrame {
        var pts = frame.pointer.pointee.best_effort_timestamp
        if pts == ft_nopts_value() { pts = lastPTS == Int64.min ? 0 : lastPTS + max(1, frameDuration) }
        lastPTS = pts
        let decoded = DecodedFrame(index: firstIndex + frameCount, frame: frame, pts: pts, time: Double(pts) * av_q2d(demuxer.videoTimeBase),
                                   orientation: demuxer.orientation(of: frame))
        frameCount += 1
        return decoded
    }
}
