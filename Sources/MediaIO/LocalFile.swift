internal import CFFmpeg
import Foundation

/// How every file FaceTrack reads or writes reaches FFmpeg: as a `file:` URL, with `file` the only
/// protocol allowed (also for anything a demuxer opens on its own), so a name such as
/// `http://host/x.mp4` or `data:x` is always a local file, never the network or another protocol.
///
/// Demuxers that open other files named inside the input (playlists, concat lists, manifests) are
/// refused unless `FACETRACK_ALLOW_FORMATS` names them; image sequences never expand a pattern
/// (a file named `img%d.png` is that one file).
package enum LocalFile {
    /// The only protocol FFmpeg may use.
    static let protocols = "file"

    /// The environment variable that lets named demuxers through (comma-separated FFmpeg names).
    package static let allowVariable = "FACETRACK_ALLOW_FORMATS"

    /// Demuxers that open other files or network streams named inside the input, with what they read.
    package static let referencingFormats: [String: String] = [
        "hls": "an HLS playlist", "dash": "a DASH manifest", "concat": "an FFmpeg concat list",
        "imf": "an IMF composition playlist", "sdp": "an SDP session description", "rtp": "an RTP stream",
        "rtsp": "an RTSP stream", "sap": "a SAP announcement", "vobsub": "a VobSub index (it opens the .sub file beside it)",
    ]

    /// The URL FFmpeg is given for `path`: `file:` then the path unchanged (the file protocol strips
    /// the prefix and nothing else).
    package static func url(_ path: String) -> String { "file:" + path }

    /// A new option dictionary allowing only the file protocol; the caller frees it.
    static func options() -> OpaquePointer? {
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", protocols, 0)
        return options
    }

    /// The demuxer names the user let through with `FACETRACK_ALLOW_FORMATS`.
    static var allowedFormats: Set<String> {
        let text = ProcessInfo.processInfo.environment[allowVariable] ?? ""
        return Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }

    /// Throws when `format` (an FFmpeg demuxer name) opens other files and was not allowed.
    static func checkAllowed(format: String, path: String) throws {
        guard let what = referencingFormats[format], !allowedFormats.contains(format) else { return }
        throw MediaError.refusedFormat(path, format: format, description: what)
    }

    /// Opens `path` for reading through the file protocol only.
    static func openForReading(_ path: String) throws -> UnsafeMutablePointer<AVIOContext> {
        var io: UnsafeMutablePointer<AVIOContext>?
        var options = options()
        defer { av_dict_free(&options) }
        let status = avio_open2(&io, url(path), AVIO_FLAG_READ, nil, &options)
        guard status >= 0, let io else { throw MediaError.unreadable(path, reason: FFmpegError.message(for: status)) }
        return io
    }

    /// Opens `path` (a temporary output) for writing through the file protocol only.
    static func openForWriting(_ path: String, into io: inout UnsafeMutablePointer<AVIOContext>?) -> Int32 {
        var options = options()
        defer { av_dict_free(&options) }
        return avio_open2(&io, url(path), AVIO_FLAG_WRITE, nil, &options)
    }
}
