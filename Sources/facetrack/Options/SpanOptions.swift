import FaceTrack

/// `--start` and `--end`: the part of the video a command reads (`process`, `render`).
struct SpanOptions: OptionGroup {
    static let start = Option("--start", "TIME",
                              help: "begin at TIME (seconds, M:SS or H:MM:SS[.mmm] from the video's start): decoding starts\n"
                                  + "at the keyframe before it and the output holds only the span, starting at 0") { text in
        guard let time = TimeSpan.parseTime(text) else { throw InvalidValue(expected: "expected a time such as 90, 1:30 or 0:01:30.5") }
        return time
    }
    static let end = Option("--end", "TIME", help: "stop before TIME (same forms as --start); CSV frames and times stay the video's") { text in
        guard let time = TimeSpan.parseTime(text) else { throw InvalidValue(expected: "expected a time such as 90, 1:30 or 0:01:30.5") }
        return time
    }

    static let options = [start.spec, end.spec]

    /// The span asked for; `nil` when neither option was given.
    let span: TimeSpan?

    init(_ arguments: ParsedArguments) throws {
        let start = try arguments.value(Self.start), end = try arguments.value(Self.end)
        if let start, let end, end <= start {
            throw UsageError("--end (\(end) s) must come after --start (\(start) s)")
        }
        span = start == nil && end == nil ? nil : TimeSpan(start: start ?? 0, end: end)
    }
}
