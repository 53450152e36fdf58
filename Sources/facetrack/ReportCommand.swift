import Batch
import FaceTrack
import Foundation
import Report

/// `facetrack report TRACKS.csv [--video VIDEO] [--summary S.json] -o report.html`: one self-contained
/// HTML page; `facetrack report results.jsonl -o index.html`: the index of a batch run.
enum ReportCommand: Command {
    static let name = "report"
    static let synopsis = "report TRACKS.csv -o REPORT.html"
    static let summary = "a self-contained HTML page: timeline, thumbnails, plots"
    static let options = ReportOptions.options + [CommonFlags.quiet.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack report TRACKS.csv [--video VIDEO] [--summary FILE] -o REPORT.html
               facetrack report RESULTS.jsonl -o INDEX.html

        Writes one self-contained HTML page (inline CSS, SVG and JPEG thumbnails; no network, opens from
        disk): a header with the input, duration, resolution, frames, faces, tracks and persons; a
        timeline with one row per track (grouped by the `person` column when present), detected and
        predicted frames told apart; a table of tracks with the thumbnail of each one's best frame
        (largest, most frontal, most confident; click it for a larger crop); plots of faces per frame,
        track lengths and confidences. Readable without JavaScript, prints on A4.
        Given a batch --results file (JSON Lines), writes an index with a row per input instead.

        OPTIONS:
        \(ReportOptions.help)
        \(CommonFlags.quiet.spec.helpEntry)
        \(CommonFlags.help.spec.helpEntry)

        EXAMPLES:
          facetrack process clip.mp4 --csv clip.csv && facetrack report clip.csv --video clip.mp4 -o clip.html
          facetrack process clip.mp4 --csv clip.csv --report clip.html
          facetrack report results.jsonl -o index.html
        """
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "report needs a TRACKS.csv or RESULTS.jsonl file"
                                                           : "report takes one input file (\(arguments.describePositionals()))")
        }
        let input = arguments.positionals[0]
        let group = try ReportOptions(arguments)
        let quiet = arguments.isSet(CommonFlags.quiet)
        let started = Date()
        if input.lowercased().hasSuffix(".jsonl") {
            if group.videoPath != nil || group.summaryPath != nil {
                throw UsageError("--video and --summary go with a tracks CSV, not a results file")
            }
            let count = try BatchIndex.write(results: input, to: group.outputPath)
            if !quiet { Console.info("wrote \(group.outputPath): \(count) files") }
            return 0
        }
        let result = try ReportBuilder.fromCSV(input, video: group.videoPath, summary: group.summaryPath, output: group.outputPath)
        if !quiet {
            var line = "wrote \(group.outputPath): \(result.tracks) tracks, \(result.thumbnails) thumbnails, "
            line += HTMLText.size(result.bytes) + String(format: ", %.2f s", Date().timeIntervalSince(started))
            Console.info(line)
        }
        return 0
    }
}
