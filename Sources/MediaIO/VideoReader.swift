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

/// A stretch of a video to read, its frames numbered as in the whole file: decoding starts at a
/// key frame (`KeyframeIndex`), frames shown before `firstPTS` are dropped (the leading pictures
/// of an open GOP), the first frame kept gets the number `firstIndex`, and reading stops after
/// `frameCount` frames. Audio is not read. A segment of a split plan is one (`--start`/`--end`
/// are a `TimeSpan`, whose output starts at 0 instead).
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
/// It can read a part of the file, one of two kinds:
/// - a `ReadSpan` (a segment of a split plan): frame-exact from a key frame the plan found, frames
///   numbered from the span's `firstIndex`, timestamps as in the original (so that parts encoded
///   apart join by stream copy), no audio;
/// - a `TimeSpan` (`--start`/`--end`): from the keyframe before the span (`Demuxer.seekToKeyframe`),
///   only the span's frames and audio packets, numbered and timed as in the whole video, the
///   output's clock starting at the span's start (`outputOrigin`).
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
    /// The split plan's stretch read; nil for none.
    package let readSpan: ReadSpan?
    /// The time span asked for, when reading one.
    package let requestedSpan: TimeSpan?
    /// `requestedSpan` in the stream's own clock (seconds).
    private let window: (start: Double, end: Double?)?
    /// Past the time span's end: nothing more is handed out.
    private var pastSpan = false
    /// The number of the first frame decoded: the keyframe a time span's reading started from, a
    /// read span's first frame (0 otherwise).
    package let firstDecodedNumber: Int
    /// Why reading broke off before the end of the file, if it did (the frames read are kept).
    package private(set) var readError: String?

    /// Opens `path` (one-line `MediaError`s name it) and its video decoder with `threads` threads
    /// (0 lets FFmpeg choose); with a `span`, moves to its key frame first (seeking, or reading
    /// from the start when the container cannot seek there).
    package convenience init(path: String, threads: Int = 0, span: ReadSpan? = nil) throws {
        try self.init(path: path, threads: threads, readSpan: span, timeSpan: nil)
    }

    /// Opens `path` as above; with `span`, only the frames and audio of that part of the video.
    package convenience init(path: String, threads: Int = 0, span: TimeSpan?) throws {
        try self.init(path: path, threads: threads, readSpan: nil, timeSpan: span)
    }

    private init(path: String, threads: Int, readSpan: ReadSpan?, timeSpan: TimeSpan?) throws {
        precondition(readSpan == nil || timeSpan == nil, "a read span and a time span cannot be combined")
        var demuxer = try Demuxer(path: path)
        self.readSpan = readSpan
        requestedSpan = timeSpan
        frameDuration = demuxer.frameRate.map { av_rescale_q(1, av_inv_q($0), demuxer.videoTimeBase) } ?? 1
        if let readSpan {
            var keyframe = try demuxer.seekToKeyframe(pts: readSpan.keyframePTS, dts: readSpan.keyframeDTS, seeking: true)
            if keyframe == nil {
                demuxer = try Demuxer(path: path)
                keyframe = try demuxer.seekToKeyframe(pts: readSpan.keyframePTS, dts: readSpan.keyframeDTS, seeking: false)
            }
            guard let keyframe else {
                throw MediaError.notSplittable(path, reason: "no key frame at timestamp \(readSpan.keyframePTS) "
                                               + "(the plan was made for another file, or the file changed)")
            }
            queued = [keyframe]
            nextNumber = readSpan.firstIndex
        }
        if let timeSpan {
            guard !demuxer.isSinglePicture else { throw MediaError.spanOfStillImage(path) }
            let origin = demuxer.startTime
            window = (origin + timeSpan.start, timeSpan.end.map { origin + $0 })
            if timeSpan.start > 0 {
                let target = Int64(((origin + timeSpan.start) / av_q2d(demuxer.videoTimeBase)).rounded(.down))
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
            window = nil
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
        if let readSpan {
            return readSpan.frameCount ?? demuxer.estimatedFrameCount.map { max(0, $0 - readSpan.firstIndex) }
        }
        guard let window, let total = demuxer.estimatedFrameCount else { return demuxer.estimatedFrameCount }
        let fps = framesPerSecond ?? VideoTiming.assumedFramesPerSecond
        let first = max(0, Int(((window.start - demuxer.startTime) * fps).rounded()))
        let end = window.end.map { min(total, Int((($0 - demuxer.startTime) * fps).rounded())) } ?? total
        return max(0, end - first)
    }
    /// The number the first frame handed out gets when it is known before reading (0, or a read
    /// span's first frame; a time span's frames say their own numbers).
    package var firstIndex: Int { readSpan?.firstIndex ?? 0 }
    /// Where the output's clock starts in the input's (seconds): a time span's start, so that an
    /// output of a span starts at 0 as `ffmpeg -ss` makes it; 0 for the whole video and for a
    /// read span (its part keeps the original's timestamps, to be joined by stream copy).
    package var outputOrigin: Double { window.map { $0.start } ?? 0 }
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
        if let limit = readSpan?.frameCount, frameCount >= limit { return nil }
        while !pastSpan {
            let frame = Frame()
            if try decoder.receive(into: frame) {
                guard let decoded = try numbered(frame) else { continue }
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
            } else if readSpan == nil, inSpan(audio: next) {
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
        if let readSpan {
            guard let limit = readSpan.frameCount, frameCount < limit else { return nil }
            return "file ends early: \(frameCount) of the \(limit) frames from frame \(readSpan.firstIndex) (truncated or changed)"
        }
        // A time span that ends before the video does is short on purpose.
        if window?.end != nil { return nil }
        return demuxer.endedEarly(framesRead: nextNumber, lastFrameTime: lastFrameTime)
    }

    private func flush() throws {
        try decoder.send(nil)
        flushed = true
    }

    /// Numbers a decoded frame, fills a missing timestamp from the frame rate and reads its
    /// orientation; `nil` for a frame before the span (decoded only to reach it). A read span's
    /// first frame must be at its `firstPTS` when it asks for an exact start.
    private func numbered(_ frame: Frame) throws -> DecodedFrame? {
        var pts = frame.pointer.pointee.best_effort_timestamp
        if let readSpan {
            // Leading pictures of an open GOP, shown before the span's first frame, are not counted.
            if pts != ft_nopts_value(), pts < readSpan.firstPTS { return nil }
            if frameCount == 0, readSpan.exactStart, pts != readSpan.firstPTS {
                throw MediaError.notSplittable(path, reason: "the first frame decoded from the key frame is at timestamp \(pts), "
                                               + "not \(readSpan.firstPTS) (the plan was made for another file, or the file changed)")
            }
        }
        if pts == ft_nopts_value() { pts = lastPTS == Int64.min ? 0 : lastPTS + max(1, frameDuration) }
        lastPTS = pts
        let number = nextNumber
        nextNumber += 1
        let time = Double(pts) * av_q2d(demuxer.videoTimeBase)
        if let window {
            if time < window.start - TimeSpan.tolerance { return nil }
            if let end = window.end, time >= end - TimeSpan.tolerance {
                pastSpan = true
                return nil
            }
        }
        let decoded = DecodedFrame(index: number, position: frameCount, frame: frame, pts: pts, time: time,
                                   orientation: demuxer.orientation(of: frame))
        frameCount += 1
        return decoded
    }

    /// Whether an audio packet belongs to the time span (all do without one): it starts in it.
    private func inSpan(audio packet: Packet) -> Bool {
        guard let window else { return true }
        let p = packet.pointer.pointee
        let stamp = p.pts != ft_nopts_value() ? p.pts : p.dts
        guard stamp != ft_nopts_value() else { return true }
        let time = Double(stamp) * av_q2d(demuxer.stream(packet.streamIndex).pointee.time_base)
        return time >= window.start - TimeSpan.tolerance && window.end.map { time < $0 - TimeSpan.tolerance } ?? true
    }
}

extension TimeSpan {
    /// Times this close count as equal (timestamps are rounded to the stream's time base).
    static let tolerance = 1e-6
}
