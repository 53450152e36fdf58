import FaceCore
import Foundation

/// Writes face tracks as JSON Lines (`--json`): one object per face and frame with the fields of
/// the tracks CSV (`TrackCSVWriter.header`: `person` with known people, `shot`), numbers with the
/// CSV's decimals, attributes as `true`/`false`, and `null` where the CSV field is empty. Keys keep
/// the column order. Written under a temporary name and renamed by `finish()`.
public final class TrackJSONWriter {
    private let file: BufferedTextFile
    private let includesPerson: Bool
    private let includesMask: Bool
    private let keys: [String]

    /// Opens `path` (or standard output for "-"), refusing one that names an input; `includesMask`
    /// adds the mask keys (`--anonymize`).
    public init(path: String, inputs: [String] = [], includesPerson: Bool = false, includesMask: Bool = false) throws {
        self.includesPerson = includesPerson
        self.includesMask = includesMask
        file = try BufferedTextFile(path: path, inputs: inputs)
        keys = TrackCSVWriter.header(includesPerson: includesPerson, includesMask: includesMask).map { "\"\($0)\":" }
    }

    /// Appends one line per face of the frame.
    public func write(frame: Int, time: Double, faces: [TrackedFace]) throws {
        for face in faces {
            file.buffer += "{"
            TrackRowValues(frame: frame, time: time, face: face).forEach(includesPerson: includesPerson, includesMask: includesMask) { index, value in
                if index > 0 { file.buffer += "," }
                file.buffer += keys[index]
                switch value {
                case .number(let text): file.buffer += text
                case .word(let text), .text(let text): file.buffer += Self.quoted(text)
                case .flag(let flag): file.buffer += flag ? "true" : "false"
                case .none: file.buffer += "null"
                }
            }
            file.buffer += "}\n"
        }
        try file.flushIfFull()
    }

    /// Writes what is buffered, closes the file and renames it into place.
    public func finish() throws {
        try file.finish()
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension TrackJSONWriter: FrameOutput {
    var listsMasks: Bool { true }
}
