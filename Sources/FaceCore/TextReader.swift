import Foundation

/// Reads the text files FaceTrack takes (CSV, JSON Lines, JSON, lists) in every common dialect:
/// a UTF-8 byte-order mark is dropped and CRLF or CR line endings become LF. Swift keeps "\r\n"
/// as one Character, so without this a CRLF file splits on "\n" into one single line. "-" reads
/// standard input; pipes and devices (`/dev/stdin`) are read to their end.
package enum TextReader {
    /// The file's text, normalised. Errors are one line naming the file.
    package static func read(_ path: String) throws -> String {
        let data: Data
        do {
            data = try FileBytes.read(path)
        } catch let error as FileReadError {
            throw TextReaderError(path: path, reason: error.reason)
        }
        return normalized(data)
    }

    /// UTF-8 text without a byte-order mark, with LF line endings.
    package static func normalized(_ data: Data) -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
}

/// A text file that cannot be read.
package struct TextReaderError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let reason: String
    package var description: String { "\(path == "-" ? "standard input" : path): \(reason)" }
}
