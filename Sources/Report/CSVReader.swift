import FaceCore
import Foundation

/// A CSV file read as bytes (RFC 4180 quoting, LF or CRLF line ends, an optional UTF-8 byte-order
/// mark), record by record, with typed access to fields by column name. Numbers are bounded by
/// their column (`ValueBounds`); every error names the file, the line and the column. The reader
/// of `facetrack report` and of `facetrack render`'s tracks (`TrackFile`).
///
/// Byte-level, since a report reads 100,000-row files in well under a second; the Evaluation
/// module's reader works on `String` characters and is internal to it.
package struct CSVReader {
    /// The file, for messages.
    package let path: String
    /// Column names of the header row, trimmed.
    package private(set) var header: [String] = []
    private let bytes: [UInt8]
    private var position: Int
    private var lineNumber = 1
    private var columnIndex: [String: Int] = [:]
    // The current record's fields as byte ranges; `escaped` when a quoted field holds "" pairs.
    private var starts: [Int] = [], ends: [Int] = [], escaped: [Bool] = []
    /// The 1-based line where the current record starts.
    package private(set) var line = 0

    /// Reads `path` and its header row.
    package init(path: String) throws {
        let data: Data
        do {
            data = try FileBytes.read(path)
        } catch let error as FileReadError {
            throw ReportError.unreadable(path, reason: error.reason)
        }
        try self.init(bytes: [UInt8](data), path: path)
    }

    /// Parses CSV bytes; `path` names them in errors.
    package init(bytes: [UInt8], path: String) throws {
        self.path = path
        self.bytes = bytes
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard nextRecord() else { throw ReportError.empty(path) }
        let names = (0..<starts.count).map { string($0).trimmingCharacters(in: .whitespaces) }
        guard names.contains(where: { !$0.isEmpty }) else { throw ReportError.empty(path) }
        header = names
        for (i, name) in names.enumerated() where columnIndex[name] == nil { columnIndex[name] = i }
    }

    /// Parses CSV bytes that have no header row (MOTChallenge text), reading their fields as `columns`.
    package init(bytes: [UInt8], path: String, columns: [String]) {
        self.path = path
        self.bytes = bytes
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        header = columns
        for (i, name) in columns.enumerated() where columnIndex[name] == nil { columnIndex[name] = i }
    }

    /// The index of a column, nil when the header lacks it.
    package func column(_ name: String) -> Int? { columnIndex[name] }

    /// Throws the one-line error naming every missing column.
    package func require(_ columns: [String]) throws {
        let missing = columns.filter { columnIndex[$0] == nil }
        if !missing.isEmpty { throw ReportError.missingColumns(path, missing) }
    }

    /// Moves to the next record; false at the end. Blank lines are skipped.
    package mutating func next() -> Bool {
        while nextRecord() {
            if starts.count > 1 || ends[0] > starts[0] { return true }
        }
        return false
    }

    /// Fields in the current record.
    package var fieldCount: Int { starts.count }

    /// A field's text (quotes removed), "" when the record is shorter.
    package func string(_ field: Int) -> String {
        guard field < starts.count else { return "" }
        let text = bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[starts[field]..<ends[field]]), as: UTF8.self)
        }
        return escaped[field] ? text.replacingOccurrences(of: "\"\"", with: "\"") : text
    }

    /// True when the field is missing or blank.
    package func isEmpty(_ field: Int?) -> Bool {
        guard let field, field < starts.count else { return true }
        for i in starts[field]..<ends[field] where bytes[i] != 0x20 && bytes[i] != 0x09 { return false }
        return true
    }

    /// A number field; nil when blank; throws naming file, line and column when it is not a number.
    package func double(_ field: Int?, _ name: String) throws -> Double? {
        guard let field, !isEmpty(field) else { return nil }
        // strtod straight on the field's bytes (copied with a terminating NUL): no String per number.
        var start = starts[field], end = ends[field]
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        let length = end - start
        var value = Double.nan
        if length < 63 {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text in
                for i in 0..<length { text[i] = CChar(bitPattern: bytes[start + i]) }
                text[length] = 0
                var stop: UnsafeMutablePointer<CChar>?
                let parsed = strtod(text.baseAddress!, &stop)
                // Whole field consumed; hexadecimal, "inf" and "nan" spellings are refused.
                if stop == text.baseAddress! + length, !text[0..<length].contains(where: { $0 == 0x78 || $0 == 0x58 }) {
                    value = parsed
                }
            }
        }
        guard value.isFinite else {
            throw ReportError.badValue(path, line: line, column: field + 1,
                                       reason: "\(name) '\(string(field).trimmingCharacters(in: .whitespaces))' is not a number")
        }
        try checkRange(value, field: field, name)
        return value
    }

    /// Refuses a value outside its column's range (`ValueBounds`), naming line and column.
    private func checkRange(_ value: Double, field: Int, _ name: String) throws {
        guard let bounds = ValueBounds.range(ofColumn: name), !bounds.range.contains(value) else { return }
        throw ReportError.badValue(path, line: line, column: field + 1,
                                   reason: ValueBounds.outOfRange(column: name, text: string(field).trimmingCharacters(in: .whitespaces)))
    }

    /// A whole-number field; nil when blank.
    package func int(_ field: Int?, _ name: String) throws -> Int? {
        guard let field, !isEmpty(field) else { return nil }
        // Digits only, read straight from the bytes (the frame and track_id columns of every row).
        var value = 0, digits = 0, negative = false
        for i in starts[field]..<ends[field] {
            let b = bytes[i]
            if b >= 0x30 && b <= 0x39, digits < 18 { value = value * 10 + Int(b - 0x30); digits += 1 }
            else if b == 0x2D && digits == 0 && !negative { negative = true }
            else if b == 0x20 || b == 0x09 { continue }
            else { throw notWholeNumber(field, name) }
        }
        guard digits > 0 else { throw notWholeNumber(field, name) }
        let number = negative ? -value : value
        try checkRange(Double(number), field: field, name)
        return number
    }

    private func notWholeNumber(_ field: Int, _ name: String) -> ReportError {
        .badValue(path, line: line, column: field + 1, reason: "\(name) '\(string(field))' is not a whole number")
    }

    /// Splits the next record into field ranges; false at the end of the bytes.
    private mutating func nextRecord() -> Bool {
        guard position < bytes.count else { return false }
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        escaped.removeAll(keepingCapacity: true)
        line = lineNumber
        var i = position
        let count = bytes.count
        while true {
            // One field.
            if i < count && bytes[i] == 0x22 {
                i += 1
                let start = i
                var hasPairs = false
                while i < count {
                    if bytes[i] == 0x22 {
                        if i + 1 < count && bytes[i + 1] == 0x22 { hasPairs = true; i += 2; continue }
                        break
                    }
                    if bytes[i] == 0x0A { lineNumber += 1 }
                    i += 1
                }
                starts.append(start); ends.append(min(i, count)); escaped.append(hasPairs)
                i += 1  // the closing quote
                while i < count && bytes[i] != 0x2C && bytes[i] != 0x0A { i += 1 }  // junk after it is dropped
            } else {
                let start = i
                while i < count && bytes[i] != 0x2C && bytes[i] != 0x0A { i += 1 }
                var end = i
                if end > start && bytes[end - 1] == 0x0D { end -= 1 }
                starts.append(start); ends.append(end); escaped.append(false)
            }
            if i >= count { position = count; return true }
            if bytes[i] == 0x0A { lineNumber += 1; position = i + 1; return true }
            i += 1  // comma
        }
    }
}
