internal import CFFmpeg
import FaceCore
import MediaIO

/// The first stage, on the caller's thread: demuxes, decodes and numbers the frames, and routes
/// audio packets to the encoder.
struct FrameReader {
    private let demuxer: Demuxer
    private let decoder: VideoDecoder
    private let frameDuration: Int64
    /// Frames handed on so far.
    private(set) var frameCount = 0
    private var lastPTS = Int64.min

    init(demuxer: Demuxer, decoder: VideoDecoder) {
        self.demuxer = demuxer
        self.decoder = decoder
        frameDuration = demuxer.frameRate.map { av_rescale_q(1, av_inv_q($0), demuxer.videoTimeBase) } ?? 1
    }

    /// Reads to the end of the input, or until the run is stopped or failed: every decoded frame
    /// goes to `frame` in order, every audio packet to `audio`. Returns a note when reading broke
    /// off early (the frames read so far are kept); throws when decoding fails.
    mutating func read(_ state: RunState, audio: (Packet) -> Void, frame: (FrameJob) -> Void) throws -> String? {
        let packet = Packet()
        var readError: String?
        reading: while !state.shouldStopReading {
            let more: Bool
            do {
                more = try state.clock.time(.decode) { try demuxer.readPacket(into: packet) }
            } catch let error as FFmpegError {
                readError = "stopped reading after \(frameCount) frames: \(error.message)"
                break reading
            }
            guard more else { break }
            if packet.streamIndex == demuxer.videoStreamIndex {
                try state.clock.time(.decode) { try decoder.send(packet) }
                try drain(into: frame, clock: state.clock)
            } else {
                let copy = Packet()
                av_packet_move_ref(copy.pointer, packet.pointer)
                audio(copy)
            }
        }
        // A stop still takes the frames the decoder holds; a failure does not.
        if !state.isFailed {
            try state.clock.time(.decode) { try decoder.send(nil) }
            try drain(into: frame, clock: state.clock)
        }
        return readError
    }

    /// Hands on every frame the decoder has ready.
    private mutating func drain(into handle: (FrameJob) -> Void, clock: StageClock) throws {
        while true {
            let frame = Frame()
            guard try clock.time(.decode, { try decoder.receive(into: frame) }) else { return }
            handle(job(for: frame))
        }
    }

    /// Numbers a decoded frame, fills a missing timestamp from the frame rate and reads its orientation.
    private mutating func job(for frame: Frame) -> FrameJob {
        var pts = frame.pointer.pointee.best_effort_timestamp
        if pts == ft_nopts_value() { pts = lastPTS == Int64.min ? 0 : lastPTS + max(1, frameDuration) }
        lastPTS = pts
        let orientation = demuxer.streamOrientation
            ?? frame.displayMatrix.map { m in m.withUnsafeBufferPointer { Demuxer.orientation(displayMatrix: $0.baseAddress!) } }
            ?? .up
        let job = FrameJob(index: frameCount, frame: frame, pts: pts, time: Double(pts) * av_q2d(demuxer.videoTimeBase),
                           orientation: orientation)
        frameCount += 1
        return job
    }
}
