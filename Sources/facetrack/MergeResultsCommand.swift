import Batch
import FaceTrack
import Foundation

/// `facetrack merge-results FILE...`: the results files of several shards as one report.
enum MergeResultsCommand {
    static let help = """
    USAGE: facetrack merge-results FILE... [--json] [-o MERGED]

    Combines the --results files of several batch runs (the shards of a job array) into one
    report: counts of done, skipped and failed inputs, frames, processing time, and each failure.
    An input listed more than once counts once (done wins over skipped over failed).
    Exit status: 0, or 1 when any input failed or a file cannot be read.

    OPTIONS:
      --json                print the report as JSON instead of text
      -o, --output MERGED   also write the merged records as one JSON Lines file
      -h, --help            show this help

    EXAMPLE:
      facetrack merge-results results-*.jsonl -o results.jsonl
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try Arguments(raw, valued: ["--output"], flags: ["--json", "--help"],
                                      aliases: ["-h": "--help", "-o": "--output"])
        if arguments.has("--help") { print(help); return 0 }
        guard !arguments.positionals.isEmpty else { throw UsageError("merge-results needs at least one results FILE") }
        let report = try ResultsReport(files: arguments.positionals)
        if let path = arguments.string("--output") {
            let output = try AtomicOutput(path: path, inputs: arguments.positionals)
            do {
                try Data(report.mergedLines.utf8).write(to: URL(fileURLWithPath: output.temporaryPath))
            } catch {
                output.discard()
                throw AtomicOutputError.unwritable(path, reason: "write failed")
            }
            try output.commit()
        }
        print(arguments.has("--json") ? report.json : report.text)
        return report.failed > 0 ? 1 : 0
    }
}
