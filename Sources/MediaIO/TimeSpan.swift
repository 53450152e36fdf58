import Foundation

/// A part of a video by time (`--start`, `--end`): the frames from `start` up to, not including,
/// `end`, both in seconds from the video's first frame (as a player counts, whatever the file's
/// own clock says). The reader seeks to the keyframe at or before `start`, decodes from there and
/// hands out only the frames of the span, numbered and timed as in the whole video.
public struct TimeSpan: Sendable, Equatable, CustomStringConvertible {
    /// Seconds from the video's start to the first frame wanted.
    public var start: Double
    /// Seconds from the video's start to the end of the span (exclusive); `nil` for the end of the video.
    public var end: Double?

    /// Creates a span; `end`, when given, must be after `start`.
    public init(start: Double = 0, end: Double? = nil) {
        self.start = start
        self.end = end
    }

    /// Reads a time: seconds (`90`, `90.5`), `M:SS` or `H:MM:SS` with an optional fraction
    /// (`1:30`, `0:01:30.5`). Nil for anything else, a negative time included.
    public static func parseTime(_ text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for (i, part) in parts.enumerated() {
            // Digits and at most one point, in the last part only; no sign, no exponent, no "inf".
            let isLast = i == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  part.filter({ $0 == "." }).count <= 1, part != ".", let value = Double(part) else { return nil }
            if !isLast && parts.count > 1 && i > 0 && value >= 60 { return nil }
            if isLast && parts.count > 1 && value >= 60 { return nil }
            seconds = seconds * 60 + value
        }
        return seconds.isFinite && seconds <= 1e9 ? seconds : nil
    }

    /// "0:01:30.000 to 0:02:00.000" (or "to the end").
    public var description: String {
        TimeSpan.clock(start) + " to " + (end.map(TimeSpan.clock) ?? "the end")
    }

    /// `H:MM:SS.mmm`.
    static func clock(_ seconds: Double) -> String {
        let millis = Int64((max(0, seconds) * 1000).rounded())
        return String(format: "%d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }
}
