import FaceCore
import Foundation

/// Text helpers for the report's HTML and SVG: escaping and the number and time formats shown.
package enum HTMLText {
    /// Escapes `& < > " '` for text and attribute values.
    package static func escape(_ text: String) -> String { text.escapingMarkup }

    /// h:mm:ss (whole seconds), the timeline's axis format.
    package static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded(.down))
        return String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
    }

    /// h:mm:ss.mmm, for tooltips and the table.
    package static func preciseClock(_ seconds: Double) -> String {
        let milliseconds = Int((max(0, seconds) * 1000).rounded())
        return String(format: "%d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
                      milliseconds / 1000 % 60, milliseconds % 1000)
    }

    /// A coordinate in the SVG (one decimal, no trailing ".0").
    package static func coordinate(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(format: "%.1f", Double(tenths) / 10)
    }

    /// A share as a whole percentage.
    package static func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }

    /// A byte count in KB or MB.
    package static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) : String(format: "%.0f KB", Double(bytes) / 1024)
    }

    /// A tick step of the time axis: a round number of seconds giving about `ticks` ticks over `duration`.
    package static func tickStep(duration: Double, ticks: Int = 8) -> Double {
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400]
        let wanted = duration / Double(max(1, ticks))
        return steps.first { $0 >= wanted } ?? 14400
    }
}

extension HTMLText {
    /// An axis label: h:mm:ss, with tenths when ticks are less than a second apart.
    package static func axisLabel(_ seconds: Double, step: Double) -> String {
        guard step < 1 else { return clock(seconds + 1e-6) }
        let tenths = Int((seconds * 10).rounded())
        return clock(Double(tenths / 10)) + ".\(tenths % 10)"
    }
}
