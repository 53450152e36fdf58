import Foundation

/// How the output video is encoded (`--codec`, `--crf`, `--preset`).
public struct EncoderSettings: Sendable, Equatable {
    /// The encoders `--codec` accepts.
    public static let codecs = ["libx264", "libx265", "mpeg4", "libvpx-vp9"]
    /// The x264/x265 presets `--preset` accepts.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    /// FFmpeg encoder name; `nil` picks the output container's default (`defaultCodec(forOutput:)`).
    public var codec: String?
    /// Constant rate factor, 0 to 51 (mpeg4 maps it to a quantiser).
    public var crf: Int
    /// Speed preset for libx264 and libx265.
    public var preset: String

    /// Creates settings; the defaults match `ffmpeg -c:v libx264 -preset medium -crf 23`.
    public init(codec: String? = nil, crf: Int = 23, preset: String = "medium") {
        self.codec = codec
        self.crf = crf
        self.preset = preset
    }

    /// The encoder a container gets when `--codec` is not given: VP9 for WebM (which takes only
    /// VP8, VP9 and AV1), H.264 otherwise.
    public static func defaultCodec(forOutput path: String) -> String {
        (path as NSString).pathExtension.lowercased() == "webm" ? "libvpx-vp9" : "libx264"
    }

    /// These settings with the codec filled in for `path`.
    public func resolved(forOutput path: String) -> EncoderSettings {
        var settings = self
        settings.codec = codec ?? EncoderSettings.defaultCodec(forOutput: path)
        return settings
    }
}
