import FaceCore
import Foundation

/// Several results files (one per shard) combined: one record per input, counts and totals.
///
/// When an input appears more than once (a shard rerun, overlapping lists) the most useful
/// record wins: done over skipped over failed, and among equals the one read last.
package struct ResultsReport: Codable, Sendable, Equatable {
    /// Inputs, each once.
    package var files = 0
    /// Inputs processed.
    package var done = 0
    /// Inputs whose outputs were already up to date.
    package var skipped = 0
    /// Inputs that failed.
    package var failed = 0
    /// Frames processed.
    package var frames = 0
    /// Face rows reported.
    package var faces = 0
    /// Confirmed tracks.
    package var tracks = 0
    /// Processing seconds summed over inputs (CPU-side work, not the wall time of the batch).
    package var seconds = 0.0
    /// Records dropped because another record of the same input won.
    package var duplicates = 0
    /// The failed inputs and their errors.
    package var failures: [Failure] = []
    /// Lines that were not records, as `FILE:LINE`.
    package var invalidLines: [String] = []
    /// The merged records, sorted by path.
    package var records: [ResultRecord] = []

    /// A failed input.
    package struct Failure: Codable, Sendable, Equatable {
        /// The input.
        package var path: String
        /// Its error.
        package var error: String

        /// A failure.
        package init(path: String, error: String) {
            self.path = path
            self.error = error
        }
    }

    /// Merges the records of `files` (JSON Lines). Throws when a file cannot be read.
    package init(files paths: [String]) throws {
        var contents: [(String, String)] = []
        for path in paths {
            // Any dialect (BOM, CRLF); "-" and pipes such as /dev/stdin are read to their end.
            do {
                contents.append((path == "-" ? "standard input" : path, try TextReader.read(path)))
            } catch let error as TextReaderError {
                throw BatchError.results(path, reason: error.reason == "no such file" ? "no such results file" : error.reason)
            }
        }
        self.init(contents: contents)
    }

    /// Merges results given as (name, JSON Lines text) pairs.
    package init(contents: [(name: String, text: String)]) {
        let decoder = JSONDecoder()
        var read: [ResultRecord] = []
        var invalid: [String] = []
        for (name, text) in contents {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                guard let record = try? decoder.decode(ResultRecord.self, from: Data(line.utf8)) else {
                    invalid.append("\(name):\(number + 1)")
                    continue
                }
                read.append(record)
            }
        }
        self.init(records: read)
        invalidLines = invalid
    }

    /// Merges records, in the order they were written.
    package init(records all: [ResultRecord]) {
        var best: [String: ResultRecord] = [:]
        for record in all {
            if let previous = best[record.path] {
                duplicates += 1
                if ResultsReport.rank(record.status) < ResultsReport.rank(previous.status) { continue }
            }
            best[record.path] = record
        }
        records = best.values.sorted { $0.path < $1.path }
        for record in records {
            files += 1
            frames += record.frames
            faces += record.faces
            tracks += record.tracks
            seconds += record.seconds
            switch record.status {
            case .done: done += 1
            case .skipped: skipped += 1
            case .failed:
                failed += 1
                failures.append(Failure(path: record.path, error: record.error ?? "unknown error"))
            }
        }
    }

    private static func rank(_ status: ResultRecord.Status) -> Int {
        switch status {
        case .failed: return 0
        case .skipped: return 1
        case .done: return 2
        }
    }

    /// The report for people: counts, totals, then one line per failure.
    package var text: String {
        var lines = ["\(files) files: \(done) done, \(skipped) skipped, \(failed) failed"]
        lines.append(String(format: "%d frames, %d faces, %d tracks, %.1f s of processing", frames, faces, tracks, seconds)
                     + (seconds > 0 ? String(format: " (%.1f fps)", Double(frames) / seconds) : ""))
        if duplicates > 0 { lines.append("\(duplicates) repeated records merged") }
        if !invalidLines.isEmpty { lines.append("\(invalidLines.count) unreadable records (lines that do not parse): \(invalidLines.prefix(5).joined(separator: ", "))") }
        for failure in failures {
            lines.append("failed: " + (failure.error.hasPrefix(failure.path) ? failure.error : "\(failure.path): \(failure.error)"))
        }
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object (records omitted; write them with `mergedLines`).
    package var json: String {
        var summary = self
        summary.records = []
        return (try? JSONOutput.string(summary, layout: .pretty)) ?? "{}"
    }

    /// The merged records as JSON Lines.
    package var mergedLines: String {
        records.map { $0.jsonLine() + "\n" }.joined()
    }
}
