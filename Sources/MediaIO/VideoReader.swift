internal import CFFmpeg
import FaceCore

/// One decoded picture of the video stream, numbered and timed.
package struct DecodedFrame: Sendable {
    /// Decoded frame number in the whole video, from 0 (also when reading a span).
    package let index: Int
    /// Place among the frames this reader handed out, from 0 (`index` unless reading a span).
    package let position: Int
    /// The picture as stored (turned by `orientation`).
    package let frame: Frame
    /// Presentation timestamp in the input stream's time base: what `VideoWriter.write` takes.
    package let pts: Int64
    /// Presentation time in seconds.
    package let time: Double
    /// How the stored picture must be turned to be upright.
    package let orientation: ImageOrientation
}

/// Reads a video file as decoded frames (numbered from 0, timestamps filled in where the file has
/// none, orientation from the stream's or the frame's display matrix) and its audio packets, in
/// file order. Owns the demuxer and the frame-threaded decoder. Used from one thread.
///
/// With a `TimeSpan` it starts at the keyframe before the span (`Demuxer.seekToKeyframe`), decodes
/// from there and hands out only the span's frames and audio packets, numbered and timed as in
/// the whole video.
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
    /// The number of the next frame the decoder gives, in the whole video.
    private var nextNumber = 0
    /// Packets read while finding the span's keyframe, decoded first.
    private var queued: [Packet] = []
    /// The span in the stream's own clock (seconds), when reading one.
    private let span: (start: Double, end: Double?)?
    /// Past the span's end: nothing more is handed out.
    private var pastSpan = false
    /// The span asked for, when reading one.
    package let requestedSpan: TimeSpan?
    /// The number of the first frame decoded: the keyframe a span's reading started from (0 otherwise).
    package let firstDecodedNumber: Int
    /// Why reading broke off before the end of the file, if it did (the frames read are kept).
    package private(set) var readError: String?

    /// Opens `path` (one-line `MediaError`s name it) and its video decoder with `threads` threads
    /// (0 lets FFmpeg choose); with `span`, only the frames and audio of that part of the video.
    package init(path: String, threads: Int = 0, span: TimeSpan? = nil) throws {
        var demuxer = try Demuxer(path: path)
        requestedSpan = span
        frameDuration = demuxer.frameRate.map { av_rescale_q(1, av_inv_q($0), demuxer.videoTimeBase) } ?? 1
        if let span {
            guard !demuxer.isSinglePicture else { throw MediaError.spanOfStillImage(path) }
            let origin = demuxer.startTime
            self.span = (origin + span.start, span.end.map { origin + $0 })
            if span.start > 0 {
                let target = Int64(((origin + span.start) / av_q2d(demuxer.videoTimeBase)).rounded(.down))
                var start = try demuxer.seekToKeyframe(before: target)
                if start == nil {
                    // The seek landed elsewhere: read from the beginning instead.
                    demuxer = try Demuxer(path: path)
                    start = try demuxer.scanToKeyframe(before: target)
                }
                queued = start?.packets ?? []
                nextNumber = start?.firstNumber ?? 0
            }
        } else {
            self.span = nil
        }
        firstDecodedNumber = nextNumber
        decoder = try VideoDecoder(demuxer: demuxer, threads: threads)
        self.demuxer = demuxer
    }

    /// The path given to `init`.
    package var path: String { demuxer.path }
    /// The average frame rate, if the file states one.
    package var framesPerSecond: Double? { demuxer.framesPerSecond }
    /// True for a still-image file (jpg, png...), read as a one-frame video.
    package var isStillImage: Bool { demuxer.isStillImage }
    /// The number of frames (of the span, when reading one), from the container; `nil` when unknown.
    package var estimatedFrameCount: Int? {
        guard let span, let total = demuxer.estimatedFrameCount else { return demuxer.estimatedFrameCount }
        let fps = framesPerSecond ?? VideoTiming.assumedFramesPerSecond
        let first = max(0, Int(((span.start - demuxer.startTime) * fps).rounded()))
        let end = span.end.map { min(total, Int((($0 - demuxer.startTime) * fps).rounded())) } ?? total
        return max(0, end - first)
    }
    /// Where the output's clock starts in the input's (seconds): the span's start, so that an
    /// output of a span starts at 0 as `ffmpeg -ss` makes it; 0 for the whole video.
    package var outputOrigin: Double { span.map { $0.start } ?? 0 }
    /// The video's first presentation time in seconds (its stream's start time; 0 when unknown).
    package var startTime: Double { demuxer.startTime }
    /// The video's picture size as stored.
    package var pictureSize: (width: Int, height: Int)? { demuxer.pictureSize }
    /// Packets the decoder rejected as damaged (skipped).
    package var damagedPackets: Int { decoder.damagedPackets }
    /// Frames the decoder marked as corrupt (kept, with concealed errors).
    package var corruptFrames: Int { decoder.corruptFrames }

    /// The next frame or audio packet; `nil` at the end of the input (or, after `stopReading()`,
    /// once the decoder has given the frames it holds).
    package func next() throws -> Item? {
        while !pastSpan {
            let frame = Frame()
            if try decoder.receive(into: frame) {
                guard let decoded = numbered(frame) else { continue }
                return .frame(decoded)
            }
            if flushed { return nil }
            if stopped {
                try flush()
                continue
            }
            let next: Packet
            if !queued.isEmpty {
                next = queued.removeFirst()
            } else {
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
                next = packet
            }
            if next.streamIndex == demuxer.videoStreamIndex {
                try decoder.send(next)
            } else if inSpan(audio: next) {
                let copy = Packet()
                av_packet_move_ref(copy.pointer, next.pointer)
                return .audio(copy)
            }
        }
        return nil
    }

    /// Reads no more packets: `next()` hands out the frames the decoder still holds, then `nil`.
    package func stopReading() { stopped = true }

    /// After reading: a note when the file was cut short (an I/O error, or fewer frames or less
    /// time than the container states), `lastFrameTime` being the last frame's time in seconds.
    package func endedEarly(lastFrameTime: Double?) -> String? {
        // A span that ends before the video does is short on purpose.
        if span?.end != nil { return nil }
        return demuxer.endedEarly(framesRead: nextNumber, lastFrameTime: lastFrameTime)
    }

    private func flush() throws {
        try decoder.send(nil)
        flushed = true
    }

    /// Numbers a decoded frame, fills a missing timestamp from the frame rate and reads its
    /// orientation; `nil` for a frame before the span (decoded only to reach it).
    private func numbered(_ frame: Frame) -> DecodedFrame? {
        var pts = frame.pointer.pointee.best_effort_timestamp
        if pts == ft_nopts_value() { pts = lastPTS == Int64.min ? 0 : lastPTS + max(1, frameDuration) }
        lastPTS = pts
        let number = nextNumber
        nextNumber += 1
        let time = Double(pts) * av_q2d(demuxer.videoTimeBase)
        if let span {
            if time < span.start - TimeSpan.tolerance { return nil }
            if let end = span.end, time >= end - TimeSpan.tolerance {
                pastSpan = true
                return nil
            }
        }
        let decoded = DecodedFrame(index: number, position: frameCount, frame: frame, pts: pts, time: time,
                                   orientation: demuxer.orientation(of: frame))
        frameCount += 1
        return decoded
    }

    /// Whether an audio packet belongs to the span (all do without one): it starts in it.
    private func inSpan(audio packet: Packet) -> Bool {
        guard let span else { return true }
        let p = packet.pointer.pointee
        let stamp = p.pts != ft_nopts_value() ? p.pts : p.dts
        guard stamp != ft_nopts_value() else { return true }
        let time = Double(stamp) * av_q2d(demuxer.stream(packet.streamIndex).pointee.time_base)
        return time >= span.start - TimeSpan.tolerance && span.end.map { time < $0 - TimeSpan.tolerance } ?? true
    }
}

extension TimeSpan {
    /// Times this close count as equal (timestamps are rounded to the stream's time base).
    static let tolerance = 1e-6
}
