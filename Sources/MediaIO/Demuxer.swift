internal import CFFmpeg
import FaceCore
import Foundation

/// Opens a media file with libavformat, picks its best video stream and reads packets.
///
/// Owns the `AVFormatContext` and closes it in `deinit`. Used from one queue at a time.
final class Demuxer {
    /// The path given to `init`.
    let path: String
    /// The open container.
    let context: UnsafeMutablePointer<AVFormatContext>
    /// Index of the chosen video stream.
    let videoStreamIndex: Int
    /// Indexes of the audio streams, in file order.
    let audioStreamIndexes: [Int]

    /// The AVIOContext the container is read through (opened by `LocalFile`, owned here).
    private var io: UnsafeMutablePointer<AVIOContext>?

    /// Opens `path`. Checks the file first so the common mistakes get plain words; reads it through
    /// the file protocol only and refuses formats that open other files (`LocalFile`).
    init(path: String) throws {
        self.path = path
        try Demuxer.checkReadableFile(path)
        // One open of the file: probed here (a pipe cannot be opened twice), then read by the demuxer.
        var io: UnsafeMutablePointer<AVIOContext>? = try LocalFile.openForReading(path)
        var format: UnsafePointer<AVInputFormat>?
        let probed = av_probe_input_buffer2(io, &format, LocalFile.url(path), nil, 0, 0)
        guard probed >= 0, let format else {
            avio_closep(&io)
            throw MediaError.unreadable(path, reason: FFmpegError.message(for: probed))
        }
        let formatName = String(cString: format.pointee.name)
        do {
            try LocalFile.checkAllowed(format: formatName, path: path)
        } catch {
            avio_closep(&io)
            throw error
        }
        var opened = avformat_alloc_context()
        opened?.pointee.pb = io
        var options = LocalFile.options()
        // image2 would read a numbered sequence (img%d.png) or a glob: the file named is one picture.
        if formatName == "image2" { av_dict_set(&options, "pattern_type", "none", 0) }
        let status = avformat_open_input(&opened, LocalFile.url(path), format, &options)
        av_dict_free(&options)
        guard status >= 0, let context = opened else {
            avio_closep(&io)
            throw MediaError.unreadable(path, reason: FFmpegError.message(for: status))
        }
        self.context = context
        self.io = io
        let info = avformat_find_stream_info(context, nil)
        if info < 0 {
            Demuxer.close(context, io: &io)
            throw MediaError.unreadable(path, reason: FFmpegError.message(for: info))
        }
        let best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        var audio: [Int] = []
        for i in 0..<Int(context.pointee.nb_streams) {
            if context.pointee.streams[i]!.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO { audio.append(i) }
        }
        if best < 0 {
            Demuxer.close(context, io: &io)
            throw MediaError.noVideoStream(path)
        }
        videoStreamIndex = Int(best)
        audioStreamIndexes = audio
        // Only the streams we use are demuxed; the rest are skipped cheaply.
        for i in 0..<Int(context.pointee.nb_streams) where i != videoStreamIndex && !audio.contains(i) {
            context.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
        }
    }

    /// Closes a container and then its AVIOContext (a caller-supplied one is not closed by FFmpeg).
    private static func close(_ context: UnsafeMutablePointer<AVFormatContext>, io: inout UnsafeMutablePointer<AVIOContext>?) {
        var toClose: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&toClose)
        avio_closep(&io)
    }

    deinit {
        Demuxer.close(context, io: &io)
    }

    /// Rejects a missing path, a directory, a device, an empty file and `-` before FFmpeg sees them.
    /// A FIFO (a pipe, `/dev/stdin`) is read as it comes.
    static func checkReadableFile(_ path: String) throws {
        if path == "-" { throw MediaError.standardInput }
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw MediaError.missingFile(path) }
            throw MediaError.cannotOpen(path, reason: FFmpegError.message(for: ft_averror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw MediaError.isDirectory(path)
        case S_IFREG:
            if info.st_size == 0 {
                // /proc and /sys files state no size but are not media either.
                let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                if real.hasPrefix("/proc/") || real.hasPrefix("/sys/") {
                    throw MediaError.notRegularFile(path, kind: "a virtual file of /proc or /sys")
                }
                throw MediaError.emptyFile(path)
            }
        case S_IFIFO: break
        case S_IFCHR: throw MediaError.notRegularFile(path, kind: "a character device")
        case S_IFBLK: throw MediaError.notRegularFile(path, kind: "a block device")
        default: throw MediaError.notRegularFile(path, kind: "a socket")
        }
        guard access(path, R_OK) == 0 else { throw MediaError.unreadable(path, reason: "permission denied") }
    }

    /// The video's picture size as stored.
    var pictureSize: (width: Int, height: Int)? {
        let parameters = videoStream.pointee.codecpar.pointee
        return parameters.width > 0 && parameters.height > 0 ? (Int(parameters.width), Int(parameters.height)) : nil
    }

    /// The chosen video stream.
    var videoStream: UnsafeMutablePointer<AVStream> { context.pointee.streams[videoStreamIndex]! }

    /// A stream by index.
    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> { context.pointee.streams[index]! }

    /// The video stream's time base.
    var videoTimeBase: AVRational { videoStream.pointee.time_base }

    /// True when the container is a still-image format (jpg, png, ...), read as a one-frame input.
    var isStillImage: Bool {
        let name = String(cString: context.pointee.iformat.pointee.name)
        return name.hasSuffix("_pipe") || name == "image2"
    }

    /// True when the video is one picture: a still image, or the cover art of an audio file
    /// (an attached picture, one frame however long the audio).
    var isSinglePicture: Bool {
        isStillImage || videoStream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
    }

    /// The display rotation stored with the video stream (the display matrix), as an orientation.
    var streamOrientation: ImageOrientation? {
        var size: Int = 0
        guard let data = av_stream_get_side_data(videoStream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            return nil
        }
        return data.withMemoryRebound(to: Int32.self, capacity: 9) { Demuxer.orientation(displayMatrix: $0) }
    }

    /// The raw display matrix of the video stream (36 bytes), to copy into an output.
    var streamDisplayMatrix: [UInt8]? {
        var size: Int = 0
        guard let data = av_stream_get_side_data(videoStream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            return nil
        }
        return Array(UnsafeBufferPointer(start: data, count: 36))
    }

    /// How a decoded frame must be turned to be upright: the stream's display matrix, else the
    /// frame's own (still images carry their EXIF orientation there).
    func orientation(of frame: Frame) -> ImageOrientation {
        streamOrientation
            ?? frame.displayMatrix.map { matrix in matrix.withUnsafeBufferPointer { Demuxer.orientation(displayMatrix: $0.baseAddress!) } }
            ?? .up
    }

    /// Maps a display matrix to the orientation that makes the picture upright.
    static func orientation(displayMatrix: UnsafePointer<Int32>) -> ImageOrientation {
        // FFmpeg's angle is counter-clockwise; a negative determinant means a mirror.
        let mirrored = Int64(displayMatrix[0]) * Int64(displayMatrix[4]) - Int64(displayMatrix[1]) * Int64(displayMatrix[3]) < 0
        var matrix = Array(UnsafeBufferPointer(start: displayMatrix, count: 9))
        if mirrored { matrix[0] = -matrix[0]; matrix[3] = -matrix[3] }
        let counterClockwise = matrix.withUnsafeBufferPointer { av_display_rotation_get($0.baseAddress!) }
        guard counterClockwise.isFinite else { return .up }
        let clockwise = Int((-counterClockwise / 90).rounded()) * 90
        return ImageOrientation(clockwiseDegrees: clockwise, mirrored: mirrored)
    }

    /// The number of video frames, from the container's count or its duration; `nil` when unknown.
    var estimatedFrameCount: Int? {
        if isSinglePicture { return 1 }
        let stream = videoStream.pointee
        if stream.nb_frames > 0 { return Int(stream.nb_frames) }
        let rate = stream.avg_frame_rate.num > 0 ? stream.avg_frame_rate : stream.r_frame_rate
        guard rate.num > 0, rate.den > 0 else { return nil }
        var seconds = 0.0
        if stream.duration > 0 {
            seconds = Double(stream.duration) * av_q2d(stream.time_base)
        } else if context.pointee.duration > 0 {
            seconds = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        return seconds > 0 ? Int((seconds * av_q2d(rate)).rounded()) : nil
    }

    /// The video's average frame rate, if known.
    var frameRate: AVRational? {
        let stream = videoStream.pointee
        if stream.avg_frame_rate.num > 0 && stream.avg_frame_rate.den > 0 { return stream.avg_frame_rate }
        if stream.r_frame_rate.num > 0 && stream.r_frame_rate.den > 0 { return stream.r_frame_rate }
        return nil
    }

    /// After reading to the end: a note when the file was cut short, judged by an I/O error or by
    /// fewer frames than the container's index promised; `nil` when it looks complete.
    /// `lastFrameTime` (seconds, the stream's own clock) is the timestamp of the last frame
    /// decoded: a container without a frame count (mkv, webm) is judged by its stated duration.
    func endedEarly(framesRead: Int, lastFrameTime: Double? = nil) -> String? {
        if let io = context.pointee.pb, io.pointee.error < 0 {
            return "read error after \(framesRead) frames (\(FFmpegError.message(for: io.pointee.error)))"
        }
        guard !isSinglePicture else { return nil }
        let promised = Int(videoStream.pointee.nb_frames)
        // One frame short is no shortfall: AVI headers often count one frame more than they hold.
        if promised > 0 {
            return framesRead < promised - 1 ? "file ends early: \(framesRead) of \(promised) frames (truncated or damaged)" : nil
        }
        guard let lastFrameTime, let stated = statedVideoDuration else { return nil }
        let stream = videoStream.pointee
        let start = stream.start_time != ft_nopts_value() ? Double(stream.start_time) * av_q2d(stream.time_base) : 0
        let frame = framesPerSecond.map { $0 > 0 ? 1 / $0 : 0.04 } ?? 0.04
        let reached = lastFrameTime - start + frame
        // Tolerance: a few frames, and half a second when the duration is the container's (audio may run longer).
        let tolerance = max(3 * frame, stated.ofStream ? 0 : 0.5)
        guard stated.seconds - reached > tolerance else { return nil }
        return String(format: "file ends early: %.2f s of %.2f s read, %d frames (truncated or damaged)", reached, stated.seconds, framesRead)
    }

    /// The video's duration as the file states it (the stream's, its DURATION tag, or the
    /// container's), never an estimate from the bit rate (which shrinks with a cut file).
    private var statedVideoDuration: (seconds: Double, ofStream: Bool)? {
        guard context.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE else { return nil }
        let stream = videoStream.pointee
        if stream.duration > 0 { return (Double(stream.duration) * av_q2d(stream.time_base), true) }
        if let tag = av_dict_get(stream.metadata, "DURATION", nil, 0), let value = tag.pointee.value {
            // Matroska's per-track tag: HH:MM:SS.fraction.
            let parts = String(cString: value).split(separator: ":")
            if parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]) {
                return (h * 3600 + m * 60 + s, true)
            }
        }
        if context.pointee.duration > 0 { return (Double(context.pointee.duration) / Double(AV_TIME_BASE), false) }
        return nil
    }

    /// The video's first presentation time in seconds: its stream's start time, else the
    /// container's; 0 when neither is known.
    var startTime: Double {
        var start = 0.0
        if videoStream.pointee.start_time != ft_nopts_value() {
            start = Double(videoStream.pointee.start_time) * av_q2d(videoTimeBase)
        } else if context.pointee.start_time != ft_nopts_value() {
            start = Double(context.pointee.start_time) / Double(AV_TIME_BASE)
        }
        return start.isFinite ? start : 0
    }

    /// The average frame rate in frames per second, if known.
    var framesPerSecond: Double? { frameRate.map { av_q2d($0) } }

    /// Moves to the key frame whose presentation timestamp is `pts` (`dts` its decoding one, when
    /// known) and returns its packet, read: the next packet `readPacket` gives is the one after it.
    /// Seeks to the key frame at or before it when `seeking` (the container's index), else reads
    /// on from where the demuxer stands; packets before it are skipped unread by the decoder.
    /// Returns nil when the seek failed or went past the key frame (read from the start instead)
    /// or the file ended first. This is how a reader starts in the middle of a file: segments of a
    /// split plan start at key frames the plan found (`KeyframeIndex`).
    func seekToKeyframe(pts: Int64, dts: Int64?, seeking: Bool) throws -> Packet? {
        if seeking, av_seek_frame(context, Int32(videoStreamIndex), dts ?? pts, AVSEEK_FLAG_BACKWARD) < 0 { return nil }
        let packet = Packet()
        while try readPacket(into: packet) {
            guard packet.streamIndex == videoStreamIndex else { continue }
            let p = packet.pointer.pointee
            if p.flags & AV_PKT_FLAG_KEY != 0, (p.pts == ft_nopts_value() ? p.dts : p.pts) == pts { return packet }
            // Packets after the key frame in decoding order: the seek went too far.
            if let dts, p.dts != ft_nopts_value(), p.dts > dts { return nil }
            if dts == nil, p.pts != ft_nopts_value(), p.pts > pts, p.flags & AV_PKT_FLAG_KEY != 0 { return nil }
        }
        return nil
    }

    /// Reads the next packet of a stream we use. Returns `nil` at the end of the file; throws
    /// `FFmpegError` when the file is damaged or cut short (the caller decides whether to go on).
    func readPacket(into packet: Packet) throws -> Bool {
        while true {
            av_packet_unref(packet.pointer)
            let status = av_read_frame(context, packet.pointer)
            if status == ft_averror_eof() { return false }
            if status < 0 { throw FFmpegError(status, "reading \(path)") }
            let index = packet.streamIndex
            if index == videoStreamIndex || audioStreamIndexes.contains(index) { return true }
        }
    }
}
