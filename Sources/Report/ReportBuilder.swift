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
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ReportError.unreadable(path, reason: "not a JSON summary: \((error as NSError).localizedDescription)")
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
                facts.append((label, number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(format: "%.3f", number)))
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
