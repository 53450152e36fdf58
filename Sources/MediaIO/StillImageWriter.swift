internal import CFFmpeg
import FaceCore
import Foundation

/// Writes one picture as a real still image: JPEG (the mjpeg encoder, full-range BT.601 as JFIF
/// wants) or PNG (RGB), chosen by the extension, through `AtomicOutput`. The encoded packet is
/// the whole file, so no container is involved.
package enum StillImageWriter {
    /// Extensions written as still images.
    package static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    /// True when `path`'s extension is a still-image format.
    package static func isStillImage(_ path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Encodes `image` and writes it to `path` (under a temporary name, renamed when complete).
    package static func write(_ image: BGRAImage, to path: String, inputs: [String] = []) throws {
        let png = (path as NSString).pathExtension.lowercased() == "png"
        do {
            let data = try encode(image, png: png)
            try AtomicOutput.write(data, to: path, inputs: inputs)
        } catch let error as FFmpegError {
            throw MediaError.failed(path, error)
        }
    }

    /// The file's bytes: one JPEG or PNG packet.
    static func encode(_ image: BGRAImage, png: Bool) throws -> Data {
        let id = png ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG
        guard let codec = avcodec_find_encoder(id) else { throw MediaError.encoderUnavailable(png ? "png" : "mjpeg") }
        guard let context = avcodec_alloc_context3(codec) else { OutOfMemory.fail("a codec context (FFmpeg's avcodec_alloc_context3)") }
        defer { var freed: UnsafeMutablePointer<AVCodecContext>? = context; avcodec_free_context(&freed) }
        let format = png ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_YUVJ420P
        context.pointee.width = Int32(image.width)
        context.pointee.height = Int32(image.height)
        context.pointee.pix_fmt = format
        context.pointee.time_base = AVRational(num: 1, den: 25)
        if !png {
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.colorspace = AVCOL_SPC_BT470BG
            // A fixed quantiser of 2: close to the original, as a photo tool's "high quality".
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = Int32(FF_QP2LAMBDA) * 2
        }
        _ = try check(avcodec_open2(context, codec, nil), "opening the \(png ? "png" : "mjpeg") encoder")
        let frame = try Frame(width: image.width, height: image.height, format: format)
        frame.pointer.pointee.color_range = context.pointee.color_range
        frame.pointer.pointee.colorspace = context.pointee.colorspace
        frame.pointer.pointee.quality = context.pointee.global_quality
        frame.pointer.pointee.pts = 0
        try PixelConverter().convertFromBGRA(image, into: frame)
        _ = try check(avcodec_send_frame(context, frame.pointer), "encoding the image")
        _ = try check(avcodec_send_frame(context, nil), "encoding the image")
        let packet = Packet()
        _ = try check(avcodec_receive_packet(context, packet.pointer), "encoding the image")
        return Data(bytes: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))
    }
}
