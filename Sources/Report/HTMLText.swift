import FaceCore
import Foundation

/// Text helpers for the report's HTML and SVG: escaping and the number and time formats shown.
package enum HTMLText {
    /// Escapes `& < > " '` for text and attribute values.
    package static func escape(_ text: String) -> String { text.escapingMarkup }

    /// h:mm:ss (whole seconds), the timeline's axis format; "-" before a time below zero.
    package static func clock(_ seconds: Double) -> String {
        guard let total = wholeUnits(seconds, per: 1, rounding: .towardZero) else { return far(seconds) }
        let sign = total < 0 ? "-" : ""
        let t = abs(total)
        return sign + String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
    }

    /// h:mm:ss.mmm, for tooltips and the table; "-" before a time below zero.
    package static func preciseClock(_ seconds: Double) -> String {
        guard let milliseconds = wholeUnits(seconds, per: 1000, rounding: .toNearestOrAwayFromZero) else { return far(seconds) }
        let sign = milliseconds < 0 ? "-" : ""
        let ms = abs(milliseconds)
        return sign + String(format: "%d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    /// `seconds * per`, rounded, when it is a number a clock can show (beyond 10^12 seconds, or
    /// not finite, it is not).
    private static func wholeUnits(_ seconds: Double, per: Double, rounding: FloatingPointRoundingRule) -> Int? {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        return Int((seconds * per).rounded(rounding))
    }

    /// A time too far for a clock, in seconds.
    private static func far(_ seconds: Double) -> String { String(format: "%.4g s", seconds) }

    /// A coordinate in the SVG (one decimal, no trailing ".0"); huge values are clamped.
    package static func coordinate(_ value: Double) -> String {
        let clamped = value.isNaN ? 0 : min(1e9, max(-1e9, value))
        let tenths = Int((clamped * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(format: "%.1f", Double(tenths) / 10)
    }

    /// A share as a whole percentage.
    package static func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }

    /// A byte count in KB or MB.
    package static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) : String(format: "%.0f KB", Double(bytes) / 1024)
    }

    /// A tick step of the time axis: a round number of seconds giving about `ticks` ticks (never
    /// more than twice that) over `duration`, however long.
    package static func tickStep(duration: Double, ticks: Int = 8) -> Double {
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400]
        let wanted = duration / Double(max(1, ticks))
        if let step = steps.first(where: { $0 >= wanted }) { return step }
        // Beyond four hours: whole days times 1, 2 or 5 times a power of ten.
        var step = 86400.0
        while step < wanted && step.isFinite {
            for factor in [2.0, 2.5, 2.0] where step < wanted { step *= factor }
        }
        return step
    }
}

extension HTMLText {
    /// An axis label: h:mm:ss, with tenths when ticks are less than a second apart.
    package static func axisLabel(_ seconds: Double, step: Double) -> String {
        guard step < 1 else { return clock(seconds + (seconds < 0 ? -1e-6 : 1e-6)) }
        let tenths = Int((seconds * 10).rounded())
        return (tenths < 0 ? "-" : "") + clock(Double(abs(tenths) / 10)) + ".\(abs(tenths) % 10)"
    }
}
