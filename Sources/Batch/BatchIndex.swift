import FaceCore
import Foundation
import Report

/// The index page of a batch run (`batch --report`, `report results.jsonl`): a row per input with
/// its status, duration, faces, tracks and a link to its report page.
package enum BatchIndex {
    /// Writes the index of a results file; returns the number of inputs listed. A file with lines
    /// that are not records is refused, naming the first such line.
    @discardableResult
    package static func write(results path: String, to output: String) throws -> Int {
        let file = try BufferedTextFile(path: output, inputs: [path])
        let report = try ResultsReport(files: [path])
        if let bad = report.invalidLines.first {
            throw BatchError.results(path, reason: "line \(bad.split(separator: ":").last ?? "?") is not a batch result record")
        }
        guard !report.records.isEmpty else { throw BatchError.results(path, reason: "no result records") }
        try file.write(BatchIndexPage.html(entries(report.records, index: output), source: path))
        try file.finish()
        return report.records.count
    }

    /// Writes the index of `records` (a batch run's, in input order) to `output`.
    package static func write(records: [ResultRecord], reports: [String?], to output: String, source: String) throws {
        let file = try BufferedTextFile(path: output)
        var withReports = records
        for i in withReports.indices where withReports[i].report == nil { withReports[i].report = reports[i] }
        try file.write(BatchIndexPage.html(entries(withReports, index: output), source: source))
        try file.finish()
    }

    /// Index rows; a link only where the report page exists.
    static func entries(_ records: [ResultRecord], index: String) -> [IndexEntry] {
        records.map { record in
            let link = record.report.flatMap { FileManager.default.fileExists(atPath: $0) ? BatchIndexPage.link(from: index, to: $0) : nil }
            return IndexEntry(input: record.path, status: record.status.rawValue, duration: record.duration, frames: record.frames,
                              faces: record.faces, tracks: record.tracks, error: record.error, link: link)
        }
    }
}
