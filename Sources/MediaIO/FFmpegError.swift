internal import CFFmpeg
import FaceCore

/// A failed FFmpeg call: the operation and FFmpeg's own message for the code.
public struct FFmpegError: Error, CustomStringConvertible, Sendable {
    /// The negative FFmpeg return code.
    public let code: Int32
    /// What was being done, e.g. "opening the H.264 decoder".
    public let operation: String

    /// True when memory could not be had: ENOMEM, or a wrapped library's generic failure under an
    /// address-space limit or while the address space is exhausted (libx264 reports a failed malloc
    /// as AVERROR_EXTERNAL and hardly fails otherwise). Decided when the error is made, while the
    /// failing run still holds its memory.
    public let isOutOfMemory: Bool

    /// Creates an error from a return code.
    public init(_ code: Int32, _ operation: String) {
        self.code = code
        self.operation = operation
        isOutOfMemory = code == ft_averror(ENOMEM) || (code == ft_averror_external() && (OutOfMemory.addressSpaceLimit != nil || !OutOfMemory.canReserve(64 << 20)))
    }

    /// FFmpeg's text for the code (`av_strerror`).
    public var message: String { Self.message(for: code) }

    /// One line: the operation and FFmpeg's message (with the remedy when the open-file limit is the cause).
    public var description: String {
        if isOutOfMemory {
            let limit = OutOfMemory.addressSpaceLimit.map { " (ulimit -v is \($0 >> 20) MB)" } ?? ""
            return "\(operation) failed: out of memory\(limit); free memory or raise the limit"
        }
        return "\(operation) failed: \(MediaError.plain(message))"
    }

    /// FFmpeg's text for an error code.
    public static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { pointer in
            String(cString: ft_error_string(code, pointer.baseAddress!, pointer.count))
        }
    }

    /// True for AVERROR_EOF.
    public var isEndOfFile: Bool { code == ft_averror_eof() }
}

/// Throws `FFmpegError` when `code` is negative; returns it otherwise.
@discardableResult
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws -> Int32 {
    if code < 0 { throw FFmpegError(code, operation()) }
    return code
}

/// A problem with a media file, worded for the user: one line that names the file.
public enum MediaError: Error, CustomStringConvertible, Sendable {
    /// The path does not exist.
    case missingFile(String)
    /// The path is a directory.
    case isDirectory(String)
    /// The file is empty.
    case emptyFile(String)
    /// FFmpeg cannot read the file as media.
    case unreadable(String, reason: String)
    /// The file has no video stream (audio only, or data).
    case noVideoStream(String)
    /// No decoder for the video codec.
    case noDecoder(String, codec: String)
    /// The output extension names no container FFmpeg can write.
    case unknownContainer(String)
    /// The chosen encoder is not in this FFmpeg build.
    case encoderUnavailable(String)
    /// An audio stream's codec cannot be stored in the output container.
    case audioNotSupported(output: String, codec: String)
    /// No frame could be decoded at all.
    case noFrames(String)
    /// A stop request (Ctrl-C, SIGTERM) came before the first frame was decoded: nothing was written.
    case stoppedBeforeFirstFrame(String)
    /// The output container cannot hold the chosen video encoder's format.
    case containerRefusesCodec(output: String, container: String, codec: String, fitting: [String])
    /// An FFmpeg call failed while working on a file.
    case failed(String, FFmpegError)
    /// The file is in a format that opens other files (a playlist), not allowed by the user.
    case refusedFormat(String, format: String, description: String)
    /// The path is a device, a socket or a /proc file: not a file to read media from.
    case notRegularFile(String, kind: String)
    /// `-` was given as an input.
    case standardInput
    /// The file exists but cannot be opened (too many open files, an I/O error).
    case cannotOpen(String, reason: String)
    /// The video cannot be cut into segments at key frames (`split-plan`), or a segment does not
    /// start where its plan says.
    case notSplittable(String, reason: String)
    /// Video parts encoded apart cannot be joined by stream copy.
    case partsDoNotJoin(String, reason: String)
    /// A video where a still image (a picture file) is needed.
    case notStillImage(String)
    /// `--start`/`--end` on a still image.
    case spanOfStillImage(String)
    /// No frame of the video lies in the span asked for.
    case emptySpan(String, span: TimeSpan)

    /// One line for the user.
    public var description: String {
        switch self {
        case .missingFile(let p): return "\(p): no such file"
        case let .containerRefusesCodec(p, container, codec, fitting):
            let options = fitting.isEmpty ? "pick another extension" : "use --codec " + fitting.joined(separator: " or ")
            return "\(p): the \(container) container cannot hold \(codec) video; \(options)"
        case .isDirectory(let p): return "\(p): is a directory, not a media file"
        case .emptyFile(let p): return "\(p): file is empty (0 bytes)"
        case let .unreadable(p, reason) where reason.lowercased() == "permission denied":
            return "\(p): permission denied (cannot read the file)"
        case let .unreadable(p, reason) where MediaError.isOpenFileLimit(reason):
            return "\(p): cannot open the file (\(MediaError.plain(reason)))"
        case let .unreadable(p, reason): return "\(p): not a media file FFmpeg can read, or damaged (\(reason))"
        case .noVideoStream(let p): return "\(p): has no video stream (audio-only or data file)"
        case let .noDecoder(p, codec): return "\(p): no decoder for video codec \(codec) in this FFmpeg build"
        case .unknownContainer(let p):
            return "\(p): cannot tell the container from the extension (use .mp4, .mov, .mkv, .webm or .avi)"
        case .encoderUnavailable(let name): return "encoder \(name) is not available in this FFmpeg build"
        case let .audioNotSupported(output, codec):
            return "\(output): this container cannot hold the input's \(codec) audio; use .mkv or .mov"
        case .noFrames(let p): return "\(p): no video frame could be decoded (not an image or video, or damaged)"
        case .stoppedBeforeFirstFrame(let p): return "\(p): stopped before the first frame was decoded; nothing written"
        case let .failed(p, error): return "\(p): \(error.description)"
        case let .refusedFormat(p, format, description):
            return "\(p): is \(description) (FFmpeg format \(format)), which opens other files; refused "
                + "(set \(LocalFile.allowVariable)=\(format) to read it)"
        case let .notRegularFile(p, kind): return "\(p): not a regular file (\(kind)), not a media file"
        case .standardInput:
            return "-: reading standard input as '-' is not supported; give a file name (a pipe can be read as /dev/stdin)"
        case let .cannotOpen(p, reason): return "\(p): cannot open the file (\(MediaError.plain(reason)))"
        case let .notSplittable(p, reason): return "\(p): cannot be split into segments: \(reason)"
        case let .partsDoNotJoin(p, reason): return "\(p): cannot join the video parts: \(reason)"
        case .notStillImage(let p): return "\(p): is a video, not a still image (use a picture such as a PNG)"
        case .spanOfStillImage(let p): return "\(p): a still image has no time span (--start/--end are for videos)"
        case let .emptySpan(p, span): return "\(p): no frame between \(span) (the video is shorter)"
        }
    }
}

extension MediaError {
    /// True when `reason` is EMFILE/ENFILE's text: the open-file limit, not the file, is the problem.
    static func isOpenFileLimit(_ reason: String) -> Bool { reason.lowercased().contains("too many open files") }

    /// A system error's text, with the remedy when it is the open-file limit.
    static func plain(_ reason: String) -> String {
        isOpenFileLimit(reason) ? "too many open files: raise the limit (ulimit -n) or run fewer jobs" : reason
    }
}
