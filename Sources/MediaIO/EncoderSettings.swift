/// How the output video is encoded (`--codec`, `--crf`, `--preset`).
public struct EncoderSettings: Sendable, Equatable {
    /// The encoders `--codec` accepts.
    public static let codecs = ["libx264", "libx265", "mpeg4"]
    /// The x264/x265 presets `--preset` accepts.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    /// FFmpeg encoder name.
    public var codec: String
    /// Constant rate factor, 0 to 51 (mpeg4 maps it to a quantiser).
    public var crf: Int
    /// Speed preset for libx264 and libx265.
    public var preset: String

    /// Creates settings; the defaults match `ffmpeg -c:v libx264 -preset medium -crf 23`.
    public init(codec: String = "libx264", crf: Int = 23, preset: String = "medium") {
        self.codec = codec
        self.crf = crf
        self.preset = preset
    }
}
