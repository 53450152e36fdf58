internal import CFFmpeg
import FaceCore
import Foundation

/// Encodes BGRA pictures of one fixed size as baseline JPEG files with FFmpeg's `mjpeg` encoder
/// (full-range 4:2:0), for thumbnails embedded in HTML. Reused for every picture of that size.
package final class JPEGEncoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let frame: Frame
    private let converter = PixelConverter()
    private let packet = Packet()
    private var pts: Int64 = 0
    /// Picture size.
    package let width: Int, height: Int

    /// Opens the encoder for `width` x `height` pictures; `quality` is the JPEG quantiser, 2 (best)
    /// to 31 (smallest).
    package init(width: Int, height: Int, quality: Int = 5) throws {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else { throw MediaError.encoderUnavailable("mjpeg") }
        guard let context = avcodec_alloc_context3(codec) else { OutOfMemory.fail("a codec context (FFmpeg's avcodec_alloc_context3)") }
        self.context = context
        self.width = width
        self.height = height
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.color_range = AVCOL_RANGE_JPEG
        context.pointee.time_base = AVRational(num: 1, den: 25)
        context.pointee.flags |= AV_CODEC_FLAG_QSCALE
        context.pointee.global_quality = Int32(FF_QP2LAMBDA) * Int32(max(2, min(31, quality)))
        context.pointee.thread_count = 1
        do {
            try check(avcodec_open2(context, codec, nil), "opening the mjpeg encoder")
            frame = try Frame(width: width, height: height, format: AV_PIX_FMT_YUVJ420P)
        } catch {
            var toFree: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&toFree)
            throw error
        }
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
    }

    deinit {
        var toFree: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&toFree)
    }

    /// The JPEG file of `image`, which must be `width` x `height`.
    package func encode(_ image: BGRAImage) throws -> Data {
        precondition(image.width == width && image.height == height, "JPEGEncoder: picture size differs from the encoder's")
        try frame.makeWritable()
        try converter.convertFromBGRA(image, into: frame)
        frame.pointer.pointee.pts = pts
        pts += 1
        try check(avcodec_send_frame(context, frame.pointer), "encoding a JPEG picture")
        var data = Data()
        while true {
            let status = avcodec_receive_packet(context, packet.pointer)
            if status == ft_averror_eagain() || status == ft_averror_eof() { break }
            try check(status, "encoding a JPEG picture")
            data.append(packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))
            av_packet_unref(packet.pointer)
        }
        guard !data.isEmpty else { throw FFmpegError(ft_averror(EINVAL), "encoding a JPEG picture (no output)") }
        return data
    }
}
