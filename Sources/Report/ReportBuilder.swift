import FaceCore
import Foundation
import MediaIO

/// Makes a report page from tracks (a CSV or a run's rows) and, when known, the video: checks
/// that they belong together, crops the thumbnails, writes the page under a temporary name and
/// renames it into place, so a failure leaves nothing at the output path.
package enum ReportBuilder {
    /// What was written.
    package struct Result: Sendable {
        /// Bytes of the page.
        package var bytes: Int
        /// Tracks on the page, and those with a thumbnail.
        package var tracks: Int, thumbnails: Int
        /// Seconds spent cropping thumbnails (seeking and encoding).
        package var thumbnailSeconds: Double
    }

    /// `facetrack report TRACKS.csv [--video V] [--summary S] -o OUT`.
    package static func fromCSV(_ csvPath: String, video: String?, summary: String?, output: String) throws -> Result {
        let inputs = [csvPath] + (video.map { [$0] } ?? []) + (summary.map { [$0] } ?? [])
        // The output is checked (and opened under a temporary name) before any work.
        let file = try BufferedTextFile(path: output, inputs: inputs)
        let rows = try FaceRows(path: csvPath)
        var details = ReportDetails(input: video ?? csvPath, tracksFile: csvPath)
        if let summary { details.run = try summaryFacts(summary) }
        return try write(rows, video: video, details: details, to: file)
    }

    /// Writes the page for `rows` to `file` (opened by the caller, so its path was checked first)
    /// and finishes it. `video` adds the resolution, the match check and thumbnails.
    package static func write(_ rows: FaceRows, video: String?, details: ReportDetails, to file: BufferedTextFile) throws -> Result {
        var details = details
        var model: TrackModel
        var thumbnails: [Int: Thumbnail] = [:]
        var thumbnailSeconds = 0.0
        if let video {
            let facts = try VideoFacts(path: video)
            try Thumbnails.checkMatch(rows, video: facts, videoPath: video)
            details.video = facts
            model = TrackModel(rows, videoFrames: facts.frames, videoDuration: facts.duration, videoStart: facts.startTime)
            let started = Date()
            thumbnails = try Thumbnails.make(for: model.tracks, video: video)
            thumbnailSeconds = Date().timeIntervalSince(started)
        } else {
            model = TrackModel(rows)
        }
        let page = ReportPage.html(model: model, details: details, thumbnails: thumbnails)
        try file.write(page)
        try file.finish()
        return Result(bytes: page.utf8.count, tracks: model.tracks.count, thumbnails: thumbnails.count,
                      thumbnailSeconds: thumbnailSeconds)
    }

    /// The scalar entries of a JSON summary (a run's statistics, `--tracks-summary`'s totals), as
    /// label and value: keys in order, nested objects one level deep, lists by their length.
    package static func summaryFacts(_ path: String) throws -> [(String, String)] {
        let value: JSONValue
        let data: Data
        do {
            data = try FileBytes.read(path)
        } catch let error as FileReadError {
            throw ReportError.unreadable(path, reason: error.reason)
        }
        do {
            // JSONSerialization first: its errors give the position (the decoder's do not).
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ReportError.unreadable(path, reason: "not a JSON summary: \(jsonProblem(error, in: data))")
        }
        guard case .object(let dictionary) = value else {
            throw ReportError.unreadable(path, reason: "not a JSON summary: expected an object")
        }
        var facts: [(String, String)] = []
        func add(_ key: String, _ value: JSONValue) {
            let label = key.replacingOccurrences(of: "_", with: " ")
            switch value {
            case .bool(let flag): facts.append((label, flag ? "yes" : "no"))
            case .number(let number):
                facts.append((label, summaryNumber(number)))
            case .string(let text): facts.append((label, text))
            case .array(let list): facts.append((label, "\(list.count) entries"))
            case .object, .null: break
            }
        }
        for key in dictionary.keys.sorted() {
            if case .object(let nested) = dictionary[key]! {
                for inner in nested.keys.sorted() { add(key + " " + inner, nested[inner]!) }
            } else {
                add(key, dictionary[key]!)
            }
        }
        return facts
    }
}

/// What is wrong with a JSON text, with its line and column ("Number 1e999 is not representable
/// in Swift, at line 1, column 7"), not Foundation's "data isn't in the correct format".
func jsonProblem(_ error: Error, in data: Data) -> String {
    var text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        ?? (error as NSError).localizedDescription
    var offset: Int?
    if let range = text.range(of: " around character ") {
        offset = Int(text[range.upperBound...].prefix { $0.isNumber })
        text = String(text[..<range.lowerBound])
    } else if let range = text.range(of: "Number "), let end = text.range(of: " is not representable") {
        // The number's own text: its first occurrence.
        let number = Array(text[range.upperBound..<end.lowerBound].utf8)
        let bytes = [UInt8](data)
        offset = number.isEmpty ? nil : (0...max(0, bytes.count - number.count)).first { bytes[$0..<($0 + number.count)].elementsEqual(number) }
    }
    text = text.hasSuffix(".") ? String(text.dropLast()) : text
    guard let offset else { return text }
    let before = data.prefix(max(0, offset))
    let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
    return "\(text), at line \(line), column \(column)"
}

/// A summary figure: whole numbers as they are, fractions to three places, very large or small
/// values in exponent form (1e+308, not 309 digits; -1e-300, not -0.000).
func summaryNumber(_ number: Double) -> String {
    if number == number.rounded() && abs(number) < 1e15 { return String(Int64(number)) }
    if abs(number) >= 1e15 || abs(number) < 1e-3 { return String(format: "%.6g", number) }
    return String(format: "%.3f", number)
}

/// Any JSON value, booleans kept apart from numbers.
enum JSONValue: Decodable {
    case bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue]), null

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let list = try? container.decode([JSONValue].self) { self = .array(list) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}
