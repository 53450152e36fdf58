import FaceCore
import Foundation

/// The clips `facetrack check` runs, read from a JSON manifest:
///
///     {"clips": [{"name": "zoom", "clip": "zoom.mp4", "truth": "zoom.truth.csv",
///                 "options": ["--detector", "blazeface"], "iou": 0.5,
///                 "thresholds": {"recall": 0.95, "id_switches": 0}}]}
///
/// Paths are relative to the manifest's folder. `name` defaults to the clip's file name without
/// extension, `golden` to golden/NAME.csv, `iou` to 0.5. Every clip and truth file must exist.
package struct CheckManifest: Sendable {
    /// One clip to check.
    package struct Entry: Sendable, Equatable {
        /// A short name (test case name, golden file name).
        package var name: String
        /// The video, resolved against the manifest's folder.
        package var clip: String
        /// The truth CSV, resolved.
        package var truth: String
        /// Where the accepted tracks CSV is stored, resolved.
        package var golden: String
        /// Options for `process` (after INPUT).
        package var options: [String]
        /// IoU threshold for the evaluation.
        package var iou: Double
        /// The limits the clip must meet.
        package var thresholds: [Threshold]
        /// The manifest line where the entry's clip is named.
        package var line: Int
    }

    /// The manifest's path.
    package let path: String
    /// The clips, in manifest order.
    package let entries: [Entry]

    /// Reads and checks a manifest.
    package static func load(path: String) throws -> CheckManifest {
        let data: Data
        do {
            // A BOM and CRLF line endings are accepted (and line numbers stay right).
            data = Data(try TextReader.read(path).utf8)
        } catch let error as TextReaderError {
            throw EvaluationError.unreadable(path, reason: error.reason)
        }
        return try parse(data, path: path)
    }

    /// Parses manifest JSON; relative paths resolve against `path`'s folder.
    package static func parse(_ data: Data, path: String) throws -> CheckManifest {
        let text = String(decoding: data, as: UTF8.self)
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw EvaluationError.badManifest(path, line: nil, reason: "empty file") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = ((error as NSError).userInfo["NSDebugDescription"] as? String).map { ": " + $0 } ?? ""
            throw EvaluationError.badManifest(path, line: errorLine(error, text: text), reason: "malformed JSON" + detail)
        }
        guard let root = object as? [String: Any], let clips = root["clips"] as? [Any] else {
            throw EvaluationError.badManifest(path, line: nil, reason: "expected an object with a \"clips\" array")
        }
        guard !clips.isEmpty else { throw EvaluationError.badManifest(path, line: nil, reason: "\"clips\" is empty") }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        func resolve(_ file: String) -> String {
            file.hasPrefix("/") ? file : folder.appendingPathComponent(file).standardized.path
        }
        var entries: [Entry] = []
        var names = Set<String>()
        for (index, item) in clips.enumerated() {
            let label = "clip \(index + 1)"
            guard let fields = item as? [String: Any] else {
                throw EvaluationError.badManifest(path, line: nil, reason: "\(label) is not an object")
            }
            guard let clip = fields["clip"] as? String, !clip.isEmpty else {
                throw EvaluationError.badManifest(path, line: nil, reason: "\(label) has no \"clip\" string")
            }
            let line = lineOf("\"" + clip + "\"", in: text)
            guard let truth = fields["truth"] as? String, !truth.isEmpty else {
                throw EvaluationError.badManifest(path, line: line, reason: "\(label) (\(clip)) has no \"truth\" string")
            }
            let name = (fields["name"] as? String) ?? URL(fileURLWithPath: clip).deletingPathExtension().lastPathComponent
            if let problem = nameProblem(name) {
                throw EvaluationError.badManifest(path, line: line, reason: "\(label) (\(clip)): name '\(name)' \(problem)")
            }
            guard names.insert(name).inserted else {
                throw EvaluationError.badManifest(path, line: line, reason: "two clips are named '\(name)'")
            }
            let options: [String]
            switch fields["options"] {
            case nil: options = []
            case let list as [String]: options = list
            default: throw EvaluationError.badManifest(path, line: line, reason: "\(label) (\(clip)): \"options\" must be an array of strings")
            }
            var iou = 0.5
            if let value = fields["iou"] {
                guard let number = value as? Double, number > 0, number <= 1 else {
                    throw EvaluationError.badManifest(path, line: line, reason: "\(label) (\(clip)): \"iou\" must be a number in (0, 1]")
                }
                iou = number
            }
            var thresholds: [Threshold] = []
            if let value = fields["thresholds"] {
                guard let table = value as? [String: Any] else {
                    throw EvaluationError.badManifest(path, line: line, reason: "\(label) (\(clip)): \"thresholds\" must be an object")
                }
                for metric in table.keys.sorted() {
                    guard let limit = table[metric] as? Double, limit.isFinite else {
                        throw EvaluationError.badManifest(path, line: lineOf("\"" + metric + "\"", in: text, after: line),
                                                          reason: "\(label) (\(clip)): threshold \(metric) must be a number")
                    }
                    guard let threshold = Threshold(metric: metric, limit: limit) else {
                        let known = (EvaluationResult.higherIsBetter.union(EvaluationResult.lowerIsBetter)).sorted().joined(separator: ", ")
                        throw EvaluationError.badManifest(path, line: lineOf("\"" + metric + "\"", in: text, after: line),
                                                          reason: "\(label) (\(clip)): unknown metric '\(metric)' (known: \(known))")
                    }
                    thresholds.append(threshold)
                }
            }
            guard !thresholds.isEmpty else {
                throw EvaluationError.badManifest(path, line: line, reason: "\(label) (\(clip)) has no thresholds: it could never fail")
            }
            let entry = Entry(name: name, clip: resolve(clip), truth: resolve(truth),
                              golden: resolve((fields["golden"] as? String) ?? "golden/\(name).csv"),
                              options: options, iou: iou, thresholds: thresholds, line: line ?? 0)
            for (what, file) in [("clip", entry.clip), ("truth", entry.truth)] where !FileManager.default.fileExists(atPath: file) {
                throw EvaluationError.badManifest(path, line: line, reason: "\(label): \(what) file \(file) does not exist")
            }
            entries.append(entry)
        }
        return CheckManifest(path: path, entries: entries)
    }

    /// Why `name` cannot name a clip, or nil: it names the clip's temporary and golden files and its
    /// test case, so it is a plain file name, never a path.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name == "." || name == ".." { return "is not a file name" }
        if name.contains("/") { return "holds a '/': a clip name is a name, not a path" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "holds control characters"
        }
        return nil
    }

    /// The 1-based line of the first occurrence of `needle` (after line `after`), if any.
    static func lineOf(_ needle: String, in text: String, after: Int? = nil) -> Int? {
        var line = 1
        for row in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line >= (after ?? 1), row.contains(needle) { return line }
            line += 1
        }
        return nil
    }

    /// The line of a JSON parse error, from the character index Foundation reports (as
    /// NSJSONSerializationErrorIndex, or as "around character N" in the debug description).
    private static func errorLine(_ error: Error, text: String) -> Int? {
        let info = (error as NSError).userInfo
        var index = info["NSJSONSerializationErrorIndex"] as? Int
        if index == nil, let debug = info["NSDebugDescription"] as? String, let range = debug.range(of: "character ") {
            index = Int(debug[range.upperBound...].prefix(while: { $0.isNumber }))
        }
        guard let index else { return nil }
        let prefix = text.utf8.prefix(max(0, index))
        return prefix.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }
}
