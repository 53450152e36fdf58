import FaceTrack

/// How the overlaid video is encoded, and how many threads a run uses.
struct EncoderOptions: OptionGroup {
    static let crf = Option<Int>.number("--crf", in: 0...51, help: "encoder quality, 0 (best) to 51 (default 23)")
    static let preset = Option.choice("--preset", "P", from: EncoderSettings.presets,
                                      help: "libx264/libx265 speed preset (default medium)")
    static let codec = Option.choice("--codec", "C", from: EncoderSettings.codecs,
                                     help: "\(EncoderSettings.codecs.joined(separator: ", ")) (default libx264; libvpx-vp9 for .webm)")
    static let threads = Option<Int>.number("--threads", in: 0...256, help: "worker threads (default: one per core)")

    static let options = [crf.spec, preset.spec, codec.spec, threads.spec]

    let settings: EncoderSettings
    /// `nil` when not given (batch then divides the cores between its files).
    let threads: Int?

    init(_ arguments: ParsedArguments) throws {
        let defaults = EncoderSettings()
        settings = EncoderSettings(codec: try arguments.value(Self.codec),
                                   crf: try arguments.value(Self.crf) ?? defaults.crf,
                                   preset: try arguments.value(Self.preset) ?? defaults.preset)
        threads = try arguments.value(Self.threads)
    }
}
