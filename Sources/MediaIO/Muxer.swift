internal import CFFmpeg
import FaceCore
import Foundation

/// Writes encoded video and copied audio into a container chosen from the output's extension.
///
/// The file is written under a temporary name and renamed by `finish()`; if the muxer is
/// released unfinished, the temporary file is deleted. Owns the `AVFormatContext`. Used from one
/// queue at a time.
final class Muxer {
    /// Paths: final and temporary.
    let output: AtomicOutput
    private let context: UnsafeMutablePointer<AVFormatContext>
    private var ioOpened = false
    private var finished = false
    private var headerWritten = false

    /// Prepares a muxer for `output`; the container comes from the final path's extension.
    init(output: AtomicOutput) throws {
        self.output = output
        guard let format = av_guess_format(nil, output.finalPath, nil) else {
            throw MediaError.unknownContainer(output.finalPath)
        }
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        // A file: URL (the name mp4's +faststart reopens), and only the file protocol, like every input.
        let status = avformat_alloc_output_context2(&allocated, format, nil, LocalFile.url(output.temporaryPath))
        guard status >= 0, let context = allocated else {
            throw MediaError.failed(output.finalPath, FFmpegError(status, "creating the output container"))
        }
        self.context = context
        context.pointee.protocol_whitelist = av_strdup(LocalFile.protocols)
    }

    deinit {
        if ioOpened { avio_closep(&context.pointee.pb) }
        if !finished { output.discard() }
        avformat_free_context(context)
    }

    /// Refuses up front an encoder the container cannot hold (libx264 in .webm), naming the ones that fit.
    func checkAccepts(encoder name: String) throws {
        guard let codec = avcodec_find_encoder_by_name(name) else { throw MediaError.encoderUnavailable(name) }
        let format = context.pointee.oformat!
        guard avformat_query_codec(format, codec.pointee.id, FF_COMPLIANCE_NORMAL) == 0 else { return }
        let fitting = EncoderSettings.codecs.filter { candidate in
            avcodec_find_encoder_by_name(candidate).map { avformat_query_codec(format, $0.pointee.id, FF_COMPLIANCE_NORMAL) == 1 } ?? false
        }
        throw MediaError.containerRefusesCodec(output: output.finalPath, container: String(cString: format.pointee.name),
                                               codec: name, fitting: fitting)
    }

    /// True when the container wants codec headers out of band (mp4, mkv...).
    var wantsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// Adds the video stream for `encoder`, with the source's display matrix (rotation) when given.
    /// Returns the stream index.
    func addVideoStream(encoder: VideoEncoder, displayMatrix: [UInt8]?) throws -> Int {
        guard let stream = avformat_new_stream(context, nil) else { OutOfMemory.fail("a stream (FFmpeg's avformat_new_stream)") }
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "configuring the video stream")
        stream.pointee.time_base = encoder.timeBase
        stream.pointee.avg_frame_rate = encoder.context.pointee.framerate
        stream.pointee.sample_aspect_ratio = encoder.context.pointee.sample_aspect_ratio
        if let matrix = displayMatrix, let side = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, matrix.count) {
            side.update(from: matrix, count: matrix.count)
        }
        return Int(stream.pointee.index)
    }

    /// Adds a stream that copies `source` packet for packet. Returns the stream index.
    func addCopiedStream(from source: UnsafeMutablePointer<AVStream>) throws -> Int {
        let parameters = source.pointee.codecpar!
        let supported = avformat_query_codec(context.pointee.oformat, parameters.pointee.codec_id, FF_COMPLIANCE_NORMAL)
        if supported != 1 {
            throw MediaError.audioNotSupported(output: output.finalPath,
                                               codec: String(cString: avcodec_get_name(parameters.pointee.codec_id)))
        }
        guard let stream = avformat_new_stream(context, nil) else { OutOfMemory.fail("a stream (FFmpeg's avformat_new_stream)") }
        try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters), "copying an audio stream")
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = source.pointee.time_base
        av_dict_copy(&stream.pointee.metadata, source.pointee.metadata, 0)
        stream.pointee.disposition = source.pointee.disposition
        return Int(stream.pointee.index)
    }

    /// Opens the temporary file and writes the container header.
    func start() throws {
        guard !finished else { return }
        do {
            if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
                try check(LocalFile.openForWriting(output.temporaryPath, into: &context.pointee.pb), "opening the output file")
                ioOpened = true
            }
            var options: OpaquePointer?
            let name = String(cString: context.pointee.oformat.pointee.name)
            // +faststart reopens the file to move the index: not possible on a device or FIFO.
            if name == "mp4" || name == "mov", !output.writesInPlace { av_dict_set(&options, "movflags", "+faststart", 0) }
            defer { av_dict_free(&options) }
            try check(avformat_write_header(context, &options), "writing the container header")
            headerWritten = true
        } catch let error as FFmpegError {
            throw MediaError.failed(output.finalPath, error)
        }
    }

    /// Writes a packet whose timestamps are in `timeBase` to stream `streamIndex`.
    func write(_ packet: Packet, timeBase: AVRational, streamIndex: Int) throws {
        // Finished or discarded: a late packet has no file to go to.
        guard !finished else { return }
        let stream = context.pointee.streams[streamIndex]!
        packet.pointer.pointee.stream_index = Int32(streamIndex)
        packet.pointer.pointee.pos = -1
        av_packet_rescale_ts(packet.pointer, timeBase, stream.pointee.time_base)
        let status = av_interleaved_write_frame(context, packet.pointer)
        if status < 0 { throw MediaError.failed(output.finalPath, FFmpegError(status, "writing a packet")) }
    }

    /// True once writing to the output file itself has failed (disk full, I/O error).
    var outputFailed: Bool {
        guard let io = context.pointee.pb else { return false }
        return io.pointee.error < 0
    }

    /// Closes and deletes the temporary file of a run that failed (at once, not whenever the
    /// last reference goes). Nothing can be written afterwards.
    func discard() {
        if ioOpened { avio_closep(&context.pointee.pb); ioOpened = false }
        if !finished { output.discard() }
        finished = true
    }

    /// Writes the trailer, closes the file and renames it to the final path.
    func finish() throws {
        guard headerWritten, !finished else { return }
        let status = av_write_trailer(context)
        if ioOpened { avio_closep(&context.pointee.pb); ioOpened = false }
        if status < 0 { throw MediaError.failed(output.finalPath, FFmpegError(status, "finishing the container")) }
        try output.commit()
        finished = true
    }
}
