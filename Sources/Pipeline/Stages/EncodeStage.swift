internal import CFFmpeg
import FaceCore
import Foundation
import MediaIO
import Synchronization

/// Serial stage: encodes frames in order, copies audio packets, and writes the container.
/// Everything but `outputFrame()` and `acceptsDirectly(_:)` runs on `queue`.
///
/// `@unchecked Sendable`: the muxer, the encoder and the timestamp state are used on `queue`
/// only; the frame pool has its own lock.
final class EncodeStage: FrameStage, @unchecked Sendable {
    /// The serial queue of the encoder and muxer.
    let queue = DispatchQueue(label: "facetrack.encode")
    private let state: RunState
    private let next: FrameStage
    private let muxer: Muxer
    private let encoder: VideoEncoder
    private let videoStream: Int
    private let sourceTimeBase: AVRational
    /// Input audio stream index → (output stream index, input time base).
    private let audio: [Int: (stream: Int, timeBase: AVRational)]
    private let width: Int
    private let height: Int
    private var lastPTS = Int64.min
    private var lastAudioDTS: [Int: Int64] = [:]
    /// Audio packets skipped because they were damaged (read after `finish()`).
    private(set) var damagedAudioPackets = 0
    private let framePool = Mutex<[Frame]>([])
    /// With an odd width or height (4:2:0 encoders take even sizes only), the last column or row
    /// is cropped: this frame shares the picture's planes with the even size.
    private let evenView: Frame?

    init(path: String, input: String, encoderSettings: EncoderSettings, threads: Int, demuxer: Demuxer, decoder: VideoDecoder,
         state: RunState, next: FrameStage) throws {
        self.state = state
        self.next = next
        let output = try AtomicOutput(path: path, inputs: [input])
        muxer = try Muxer(output: output)
        let encoderSettings = encoderSettings.resolved(forOutput: path)
        try muxer.checkAccepts(encoder: encoderSettings.codec ?? "libx264")
        let parameters = demuxer.videoStream.pointee.codecpar.pointee
        width = Int(parameters.width)
        height = Int(parameters.height)
        sourceTimeBase = demuxer.videoTimeBase
        let evenWidth = width & ~1, evenHeight = height & ~1
        guard evenWidth > 0, evenHeight > 0 else {
            throw MediaError.failed(path, FFmpegError(-22, "encoding a \(width)x\(height) picture (at least 2x2 is needed)"))
        }
        evenView = evenWidth != width || evenHeight != height ? Frame() : nil
        do {
            encoder = try VideoEncoder(settings: encoderSettings, threads: threads, width: evenWidth, height: evenHeight, timeBase: sourceTimeBase,
                                       frameRate: demuxer.frameRate, colorsFrom: decoder.context,
                                       globalHeader: muxer.wantsGlobalHeader)
            videoStream = try muxer.addVideoStream(encoder: encoder, displayMatrix: demuxer.streamDisplayMatrix)
        } catch let error as FFmpegError {
            throw MediaError.failed(path, error)
        }
        var audio: [Int: (Int, AVRational)] = [:]
        for index in demuxer.audioStreamIndexes {
            audio[index] = (try muxer.addCopiedStream(from: demuxer.stream(index)), demuxer.stream(index).pointee.time_base)
        }
        self.audio = audio
        try muxer.start()
    }

    func accept(_ job: FrameJob) {
        queue.async { [self] in
            state.attempt { try encode(job) }
            next.accept(job)
        }
    }

    /// Copies an audio packet into the output, in reading order.
    func acceptCopied(_ packet: Packet) {
        queue.async { [self] in state.attempt { try state.clock.time(.mux) { try writeCopied(packet) } } }
    }

    /// True when a decoded frame can go to the encoder as it is (same size and pixel format).
    func acceptsDirectly(_ frame: Frame) -> Bool {
        frame.width == width && frame.height == height && frame.pixelFormat == encoder.pixelFormat
    }

    /// A writable frame in the encoder's size and format, reused when possible. Thread-safe.
    func outputFrame() throws -> Frame {
        if let frame = framePool.withLock({ $0.popLast() }) {
            try frame.makeWritable()
            return frame
        }
        let frame = try Frame(width: width, height: height, format: encoder.pixelFormat)
        frame.pointer.pointee.colorspace = encoder.context.pointee.colorspace
        frame.pointer.pointee.color_range = encoder.context.pointee.color_range
        return frame
    }

    /// Encodes the job's picture with its source timestamp, kept strictly increasing.
    private func encode(_ job: FrameJob) throws {
        var frame = job.output ?? job.frame
        if let evenView {
            let status = av_frame_ref(evenView.pointer, frame.pointer)
            if status < 0 { throw FFmpegError(status, "cropping an odd-sized frame") }
            evenView.pointer.pointee.width = encoder.context.pointee.width
            evenView.pointer.pointee.height = encoder.context.pointee.height
            frame = evenView
        }
        defer { if let evenView { av_frame_unref(evenView.pointer) } }
        var pts = job.pts
        if av_cmp_q(encoder.timeBase, sourceTimeBase) != 0 { pts = av_rescale_q(pts, sourceTimeBase, encoder.timeBase) }
        if pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        frame.pointer.pointee.pts = pts
        // A decoded key frame would force one in the output; let the encoder place its own.
        frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
        // Packets are muxed from inside the encoder's call: their time goes to mux, not encode.
        let start = StageClock.threadSeconds()
        var muxing = 0.0
        try encoder.encode(frame) { packet in
            let muxStart = StageClock.threadSeconds()
            try muxer.write(packet, timeBase: encoder.timeBase, streamIndex: videoStream)
            muxing += StageClock.threadSeconds() - muxStart
        }
        state.clock.add(.encode, StageClock.threadSeconds() - start - muxing)
        state.clock.add(.mux, muxing)
        if let output = job.output { framePool.withLock { $0.append(output) } }
    }

    /// Writes an audio packet unchanged (timestamps rescaled to the output stream). A damaged
    /// packet, or one whose timestamp goes backwards, is skipped and counted, as the decoder does
    /// for video.
    private func writeCopied(_ packet: Packet) throws {
        guard let target = audio[packet.streamIndex] else { return }
        let dts = packet.pointer.pointee.dts
        if dts != ft_nopts_value() {
            if let last = lastAudioDTS[packet.streamIndex], dts <= last {
                damagedAudioPackets += 1
                return
            }
            lastAudioDTS[packet.streamIndex] = dts
        }
        do {
            try muxer.write(packet, timeBase: target.timeBase, streamIndex: target.stream)
        } catch MediaError.failed where !muxer.outputFailed {
            // The container's own checks (an ADTS header, say) rejected the packet; the file is fine.
            damagedAudioPackets += 1
        }
    }

    /// Deletes the unfinished output (the run failed).
    func discard() { muxer.discard() }

    /// Flushes the encoder and closes the container under its final name.
    func finish() throws {
        try state.clock.time(.encode) {
            try encoder.encode(nil) { packet in try muxer.write(packet, timeBase: encoder.timeBase, streamIndex: videoStream) }
        }
        try state.clock.time(.mux) { try muxer.finish() }
    }
}
