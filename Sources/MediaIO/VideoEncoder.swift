internal import CFFmpeg
import FaceCore

/// Encodes frames with libavcodec (libx264 by default).
///
/// Owns the `AVCodecContext` and frees it in `deinit`. Used from one queue at a time.
final class VideoEncoder {
    /// The open encoder.
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The pixel format frames must have.
    let pixelFormat: AVPixelFormat

    /// Opens an encoder for `width` x `height` frames whose timestamps are in `timeBase`, with
    /// `threads` threads (0 lets the encoder choose). Colour tags (matrix, range, primaries, transfer) are copied from the decoder so players
    /// show the colours the source had.
    init(settings: EncoderSettings, threads: Int, width: Int, height: Int, timeBase: AVRational, frameRate: AVRational?,
                colorsFrom decoder: UnsafePointer<AVCodecContext>, globalHeader: Bool) throws {
        let name = settings.codec ?? "libx264"
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw MediaError.encoderUnavailable(name)
        }
        guard let context = avcodec_alloc_context3(codec) else { OutOfMemory.fail("a codec context (FFmpeg's avcodec_alloc_context3)") }
        self.context = context
        let fullRange = decoder.pointee.color_range == AVCOL_RANGE_JPEG
            || PixelConverter.plainFormat(decoder.pointee.pix_fmt) != decoder.pointee.pix_fmt
        pixelFormat = AV_PIX_FMT_YUV420P
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = timeBase
        if let rate = frameRate { context.pointee.framerate = rate }
        context.pointee.sample_aspect_ratio = decoder.pointee.sample_aspect_ratio
        context.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        context.pointee.colorspace = decoder.pointee.colorspace
        context.pointee.color_primaries = decoder.pointee.color_primaries
        context.pointee.color_trc = decoder.pointee.color_trc
        context.pointee.thread_count = Int32(threads)
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        if name == "libvpx-vp9" {
            // Constant quality (CRF with no bit-rate cap); the x264 preset has no VP9 equivalent.
            context.pointee.bit_rate = 0
            av_opt_set(context.pointee.priv_data, "crf", String(settings.crf), 0)
            av_opt_set(context.pointee.priv_data, "deadline", "good", 0)
            av_opt_set(context.pointee.priv_data, "cpu-used", "4", 0)
            av_opt_set(context.pointee.priv_data, "row-mt", "1", 0)
        } else if name == "mpeg4" {
            // MPEG-4 part 2 has no CRF: map it to a fixed quantiser (23 gives 4, a good quality).
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = Int32(FF_QP2LAMBDA) * Int32(max(2, min(31, (settings.crf + 3) / 6)))
            // MPEG-4 allows time-base denominators up to 65535 only.
            if timeBase.den > 65535, let rate = frameRate { context.pointee.time_base = av_inv_q(rate) }
        } else {
            av_opt_set(context.pointee.priv_data, "crf", String(settings.crf), 0)
            av_opt_set(context.pointee.priv_data, "preset", settings.preset, 0)
            if name == "libx265" { av_opt_set(context.pointee.priv_data, "x265-params", "log-level=error", 0) }
        }
        try check(avcodec_open2(context, codec, nil), "opening the \(name) encoder")
    }

    deinit {
        var toFree: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&toFree)
    }

    /// The time base of the frames' `pts` (may differ from the one asked for, see mpeg4).
    var timeBase: AVRational { context.pointee.time_base }

    /// Sends a frame (or `nil` to flush) and hands every packet that comes out to `output`.
    func encode(_ frame: Frame?, output: (Packet) throws -> Void) throws {
        let status = avcodec_send_frame(context, frame?.pointer)
        if status < 0 && status != ft_averror_eof() { throw FFmpegError(status, "encoding video") }
        while true {
            let packet = Packet()
            let received = avcodec_receive_packet(context, packet.pointer)
            if received == ft_averror_eagain() || received == ft_averror_eof() { return }
            if received < 0 { throw FFmpegError(received, "encoding video") }
            try output(packet)
        }
    }
}
