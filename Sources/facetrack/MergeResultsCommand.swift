import Batch
import FaceTrack
import Foundation

/// `facetrack merge-results FILE...`: the results files of several shards as one report.
enum MergeResultsCommand: Command {
    static let name = "merge-results"
    static let synopsis = "merge-results FILE..."
    static let summary = "combine the --results files of batch shards into one report"
    static let json = Flag("--json", help: "print the report as JSON instead of text")
    static let output = Option.output("--output", short: "-o", "MERGED", help: "also write the merged records as one JSON Lines file")
    static let options = [json.spec, output.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack merge-results FILE... [--json] [-o MERGED]

        Combines the --results files of several batch runs (the shards of a job array) into one
        report: counts of done, skipped and failed inputs, frames, processing time, and each failure.
        An input listed more than once counts once (done wins over skipped over failed).
        Exit status: 0, or 1 when any input failed or a file cannot be read. A line that is not a
        record (a shard killed mid-write) is an error, and -o is then not written.

        OPTIONS:
        \(options.map(\.helpEntry).joined(separator: "\n"))

        EXAMPLE:
          facetrack merge-results results-*.jsonl -o results.jsonl
        """
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard !arguments.positionals.isEmpty else { throw UsageError("merge-results needs at least one results FILE") }
        let report = try ResultsReport(files: arguments.positionals)
        // A damaged line is a record lost: the merged file would look complete without it, so it is
        // not written (an existing one is left alone).
        if let path = try arguments.value(output), report.invalidLines.isEmpty {
            let file = try BufferedTextFile(path: path, inputs: arguments.positionals)
            try file.write(report.mergedLines)
            try file.finish()
        }
        // Paths and error texts come from the files: control characters are shown escaped.
        print(arguments.isSet(json) ? report.json
                                    : report.text.split(separator: "\n", omittingEmptySubsequences: false)
                                        .map { Console.escapingControls(String($0)) }.joined(separator: "\n"))
        // A line that does not parse (a shard killed mid-write) is a record lost: an error.
        if let first = report.invalidLines.first {
            Console.error(ResultsLineError(location: first, count: report.invalidLines.count,
                                           unwritten: try arguments.value(output)))
            return 1
        }
        return report.failed > 0 ? 1 : 0
    }
}

/// Results lines that are not records.
struct ResultsLineError: Error, CustomStringConvertible {
    let location: String
    let count: Int
    /// The -o file left unwritten because of it.
    var unwritten: String?
    var description: String {
        "\(location): not a results record (truncated or damaged line)" + (count > 1 ? "; \(count) unreadable records in all" : "")
            + (unwritten.map { "; \($0) not written" } ?? "")
    }
}
