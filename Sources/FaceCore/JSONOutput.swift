import Foundation

/// The one way FaceTrack writes JSON (results records, merged reports, track summaries, `eval
/// --json`, `find`'s lines): `JSONEncoder` with sorted keys and unescaped slashes, so every file
/// is deterministic and diffable.
package enum JSONOutput {
    /// One line (JSON Lines), or indented for people.
    package enum Layout {
        case line, pretty
    }

    /// `value` as JSON text (no trailing newline); `snakeCaseKeys` turns `frameCount` into
    /// `frame_count`, like the CSV columns.
    package static func string<Value: Encodable>(_ value: Value, layout: Layout = .line, snakeCaseKeys: Bool = false) throws
        -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = layout == .pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                                                     : [.sortedKeys, .withoutEscapingSlashes]
        if snakeCaseKeys { encoder.keyEncodingStrategy = .convertToSnakeCase }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A number written with at most `decimals` decimals (a count as a whole number), or `null`.
package enum JSONNumber: Encodable, Sendable, Equatable {
    case count(Int)
    case rounded(Double, decimals: Int)
    case null

    /// `value` rounded to `decimals`, or `null` when it is missing or not finite (JSON has no NaN).
    package init(_ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { self = .null; return }
        self = .rounded(value, decimals: decimals)
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .count(let value): try container.encode(value)
        case let .rounded(value, decimals):
            let scale = pow(10, Double(decimals))
            try container.encode((value * scale).rounded() / scale)
        case .null: try container.encodeNil()
        }
    }
}
