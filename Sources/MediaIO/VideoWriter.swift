internal import CFFmpeg
import FaceCore
import Synchronization

/// Encodes frames and copies audio into a new container, written under a temporary name and
/// renamed by `finish()` (released unfinished, or after `discard()`, the temporary file goes).
///
/// What FFmpeg needs of the frames is done here: frames of an odd width or height are cropped to
/// the even size 4:2:0 encoders take (a view sharing the planes), timestamps are rescaled to the
/// encoder's time base and kept strictly increasing, a decoded key frame does not force one in
/// the output, and audio packets whose timestamps go backwards or that the container rejects are
/// skipped and counted. Used from one queue; `framePool` may be used from any thread.
package final class VideoWriter {
    /// Writable frames in the encoder's size and format, for pictures that cannot go as decoded.
    package let framePool: OutputFramePool
    /// Audio packets skipped because they were damaged.
    package var damagedAudioPackets: Int { audio?.damagedPackets ?? 0 }
    /// CPU seconds of this thread spent muxing (inside `write`, `copyAudio` and `finish`).
    package private(set) var muxSeconds = 0.0

    private let muxer: Muxer
    private let encoder: VideoEncoder
    private let videoStream: Int
    private let sourceTimeBase: AVRational
    /// The input's audio streams, copied; nil when the output has no audio.
    private let audio: AudioCopy?
    /// The span's start in the video's time base: output timestamps start there (0 for a whole
    /// video, and for a segment's part, which keeps the original's timestamps to join by copy).
    private let videoOrigin: Int64
    private var lastPTS = Int64.min
    /// With an odd width or height, the last column or row is cropped: this frame shares the
    /// picture's planes with the even size.
    private let evenView: Frame?

    /// Opens `path` (refused when it names one of `inputs`) for the video `source` reads, with
    /// every audio stream of `source` copied unless `copiesAudio` is false (a segment's part of a
    /// video, whose audio is copied once when the parts are joined); the container follows the
    /// extension. `closedGOPs` keeps every group of pictures to itself, so that parts encoded
    /// apart join by stream copy.
    package init(path: String, inputs: [String], settings: EncoderSettings, threads: Int, source: VideoReader,
                 copiesAudio: Bool = true, closedGOPs: Bool = false) throws {
        muxer = try Muxer(output: try AtomicOutput(path: path, inputs: inputs))
        let settings = settings.resolved(forOutput: path)
        try muxer.checkAccepts(encoder: settings.codec ?? "libx264")
        let demuxer = source.demuxer
        let parameters = demuxer.videoStream.pointee.codecpar.pointee
        let width = Int(parameters.width), height = Int(parameters.height)
        sourceTimeBase = demuxer.videoTimeBase
        let evenWidth = width & ~1, evenHeight = height & ~1
        guard evenWidth > 0, evenHeight > 0 else {
            throw MediaError.failed(path, FFmpegError(-22, "encoding a \(width)x\(height) picture (at least 2x2 is needed)"))
        }
        evenView = evenWidth != width || evenHeight != height ? Frame() : nil
        do {
            encoder = try VideoEncoder(settings: settings, threads: threads, width: evenWidth, height: evenHeight,
                                       timeBase: sourceTimeBase, frameRate: demuxer.frameRate,
                                       colorsFrom: source.decoder.context, globalHeader: muxer.wantsGlobalHeader,
                                       closedGOPs: closedGOPs)
            videoStream = try muxer.addVideoStream(encoder: encoder, displayMatrix: demuxer.streamDisplayMatrix)
        } catch let error as FFmpegError {
            throw MediaError.failed(path, error)
        }
        // A time span's output starts at 0, as `ffmpeg -ss` makes it; its streams keep their offsets.
        let origin = source.outputOrigin
        videoOrigin = AudioCopy.ticks(origin, in: sourceTimeBase)
        audio = copiesAudio ? try AudioCopy(from: demuxer, into: muxer, origin: origin) : nil
        framePool = OutputFramePool(width: width, height: height, format: encoder.pixelFormat,
                                    colorspace: encoder.context.pointee.colorspace, range: encoder.context.pointee.color_range)
        try muxer.start()
    }

    /// Encodes `frame` at `pts` (the input stream's time base, as `DecodedFrame.pts`).
    package func write(_ frame: Frame, pts: Int64) throws {
        var frame = frame
        if let evenView {
            let status = av_frame_ref(evenView.pointer, frame.pointer)
            if status < 0 { throw FFmpegError(status, "cropping an odd-sized frame") }
            evenView.pointer.pointee.width = encoder.context.pointee.width
            evenView.pointer.pointee.height = encoder.context.pointee.height
            frame = evenView
        }
        defer { if let evenView { av_frame_unref(evenView.pointer) } }
        var pts = pts - videoOrigin
        if av_cmp_q(encoder.timeBase, sourceTimeBase) != 0 { pts = av_rescale_q(pts, sourceTimeBase, encoder.timeBase) }
        if pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        frame.pointer.pointee.pts = pts
        // A decoded key frame would force one in the output; let the encoder place its own.
        frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
        try encoder.encode(frame) { try writeVideo($0) }
    }

    /// Writes an audio packet of the input unchanged (timestamps rescaled to the output stream).
    /// A damaged packet, or one whose timestamp goes backwards, is skipped and counted.
    package func copyAudio(_ packet: Packet) throws {
        guard let audio else { return }
        try muxing { try audio.copy(packet, into: muxer) }
    }

    /// Flushes the encoder and closes the container under its final name.
    package func finish() throws {
        try encoder.encode(nil) { try writeVideo($0) }
        try muxing { try muxer.finish() }
    }

    /// Deletes the unfinished output (the run failed).
    package func discard() { muxer.discard() }

    private func writeVideo(_ packet: Packet) throws {
        try muxing { try muxer.write(packet, timeBase: encoder.timeBase, streamIndex: videoStream) }
    }

    private func muxing(_ work: () throws -> Void) rethrows {
        let start = CPUClock.threadSeconds()
        defer { muxSeconds += CPUClock.threadSeconds() - start }
        try work()
    }
}

/// Writable frames in the encoder's size, pixel format and colour tags, reused once encoded.
/// Thread-safe.
package final class OutputFramePool: Sendable {
    private let width: Int, height: Int
    private let format: Int32, colorspace: UInt32, range: UInt32
    private let free = Mutex<[Frame]>([])

    fileprivate init(width: Int, height: Int, format: AVPixelFormat, colorspace: AVColorSpace, range: AVColorRange) {
        self.width = width
        self.height = height
        self.format = format.rawValue
        self.colorspace = colorspace.rawValue
        self.range = range.rawValue
    }

    /// True when a decoded frame can go to the encoder as it is (same size and pixel format).
    package func acceptsDirectly(_ frame: Frame) -> Bool {
        frame.width == width && frame.height == height && frame.pixelFormat.rawValue == format
    }

    /// A writable frame, reused when one is free.
    package func take() throws -> Frame {
        if let frame = free.withLock({ $0.popLast() }) {
            try frame.makeWritable()
            return frame
        }
        let frame = try Frame(width: width, height: height, format: AVPixelFormat(rawValue: format))
        frame.pointer.pointee.colorspace = AVColorSpace(rawValue: colorspace)
        frame.pointer.pointee.color_range = AVColorRange(rawValue: range)
        return frame
    }

    /// Gives a frame taken from the pool back once it is encoded.
    package func recycle(_ frame: Frame) {
        free.withLock { $0.append(frame) }
    }
}
