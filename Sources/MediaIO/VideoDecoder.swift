internal import CFFmpeg
import FaceCore

/// Decodes the demuxer's video stream with libavcodec, frame-threaded.
///
/// Owns the `AVCodecContext` and frees it in `deinit`. Used from one queue at a time.
final class VideoDecoder {
    /// The open decoder.
    let context: UnsafeMutablePointer<AVCodecContext>
    /// Packets the decoder rejected as damaged.
    private(set) var damagedPackets = 0
    /// Frames the decoder marked as corrupt (concealed errors).
    private(set) var corruptFrames = 0

    /// Opens a decoder for the demuxer's video stream. `threads` 0 lets FFmpeg choose.
    init(demuxer: Demuxer, threads: Int = 0) throws {
        let parameters = demuxer.videoStream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError.noDecoder(demuxer.path, codec: String(cString: avcodec_get_name(parameters.pointee.codec_id)))
        }
        guard let context = avcodec_alloc_context3(codec) else { OutOfMemory.fail("a codec context (FFmpeg's avcodec_alloc_context3)") }
        self.context = context
        do {
            try check(avcodec_parameters_to_context(context, parameters), "configuring the video decoder")
            context.pointee.pkt_timebase = demuxer.videoTimeBase
            context.pointee.thread_count = Int32(threads)
            context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            try check(avcodec_open2(context, codec, nil), "opening the \(String(cString: codec.pointee.name)) decoder")
        } catch let error as FFmpegError {
            throw MediaError.failed(demuxer.path, error)
        }
    }

    deinit {
        var toFree: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&toFree)
    }

    /// Sends one packet (or `nil` to flush at the end). A damaged packet is counted and skipped.
    func send(_ packet: Packet?) throws {
        let status = avcodec_send_packet(context, packet?.pointer)
        if status == ft_averror_invaliddata() { damagedPackets += 1; return }
        if status == ft_averror_eof() { return }
        if status < 0 && status != ft_averror_eagain() { throw FFmpegError(status, "decoding video") }
    }

    /// Receives the next decoded frame into `frame`; `false` when the decoder needs more input or is done.
    func receive(into frame: Frame) throws -> Bool {
        let status = avcodec_receive_frame(context, frame.pointer)
        if status == ft_averror_eagain() || status == ft_averror_eof() { return false }
        if status == ft_averror_invaliddata() { damagedPackets += 1; return false }
        if status < 0 { throw FFmpegError(status, "decoding video") }
        if frame.pointer.pointee.decode_error_flags != 0 || frame.pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            corruptFrames += 1
        }
        return true
    }
}
