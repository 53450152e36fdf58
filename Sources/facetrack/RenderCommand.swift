import FaceTrack
import Foundation
import Pipeline

/// `facetrack render INPUT --tracks TRACKS.csv -o OUT`: overlays or anonymisation from a tracks
/// file, no detector run; `--edits` applies a review, `--truth` draws a visual diff.
enum RenderCommand: Command {
    static let name = "render"
    static let synopsis = "render INPUT --tracks T.csv -o OUT"
    static let summary = "draw a tracks file (edited, or against a truth) on the video, no detection"
    static let startsWorkers = true

    static let tracks = Option.text("--tracks", "FILE",
                                    help: "the tracks to draw: process --csv's columns (by name, any order) or MOTChallenge text")
    static let output = Option.output("--output", short: "-o", "OUT", help: "the video to write (.mp4, .mkv, .mov, .webm...)")
    static let edits = Option.text("--edits", "FILE", help: "a review's edits (JSON, docs/edits.md), applied to the tracks first")
    static let truth = Option.text("--truth", "FILE",
                                   help: "draw a visual diff against this truth CSV: matched green, missed red, false yellow,\n"
                                       + "an ID switch ringed magenta on the frame it happens")
    static let interpolate = Flag("--interpolate", help: "fill each track's missing frames between two of its rows (boxes moved linearly)")

    static let ownOptions = [tracks.spec, output.spec, edits.spec, truth.spec, interpolate.spec]
    static let options = ownOptions + SpanOptions.options + OverlayOptions.options + EncoderOptions.options
        + [CommonFlags.quiet.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack render INPUT --tracks TRACKS.csv -o OUT [options]

        Draws the faces of a tracks file on the video without running any detector: boxes, eyes and
        labels, or anonymisation, with the options of process. The tracks may be process --csv's file,
        one edited by hand or by a script, another tool's in the same columns, or MOTChallenge text.
        A track's missing frames stay empty unless --interpolate. A `mask` column (keep or mask, as
        the review page's edits set it) keeps a track visible or always masks it; without
        --anonymize, tracks marked mask are blurred and the others are not.
        Bad tracks (unknown columns, non-numbers, frames beyond the video, boxes outside the frame)
        stop the run with one line naming the line and column; nothing is written.

        OPTIONS:
        \(ownOptions.map(\.helpEntry).joined(separator: "\n"))

        SPAN:
        \(SpanOptions.help)

        OVERLAYS:
        \(OverlayOptions.help)

        ENCODING:
        \(EncoderOptions.help)

        OTHER:
        \(CommonFlags.quiet.spec.helpEntry)
        \(CommonFlags.help.spec.helpEntry)

        EXAMPLES:
          facetrack render clip.mp4 --tracks clip.csv -o clip-anon.mp4 --anonymize blur --overlay none
          facetrack render clip.mp4 --tracks clip.csv --edits clip-edits.json -o clip-reviewed.mp4 --anonymize pixelate
          facetrack render clip.mp4 --tracks pred.csv --truth clip.truth.csv -o diff.mp4
          facetrack render clip.mp4 --tracks other-tool.txt --interpolate -o clip-boxes.mp4
        """
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "render needs an INPUT video"
                                                           : "render takes one INPUT video (got \(arguments.positionals.count))")
        }
        guard let tracks = try arguments.value(Self.tracks) else { throw UsageError("render needs --tracks FILE") }
        guard let output = try arguments.value(Self.output) else { throw UsageError("render needs -o OUT") }
        let truth = try arguments.value(Self.truth)
        var overlay = try OverlayOptions(arguments).configuration
        if truth != nil, try arguments.value(OverlayOptions.overlay) == nil { overlay.kinds = [.boxes, .labels] }
        let encoder = try EncoderOptions(arguments)
        var job = RenderJob(input: arguments.positionals[0], tracks: tracks, output: output, overlay: overlay,
                            encoder: encoder.settings)
        job.edits = try arguments.value(Self.edits)
        job.truth = truth
        job.interpolate = arguments.isSet(Self.interpolate)
        job.threads = encoder.threads ?? 0
        job.span = try SpanOptions(arguments).span
        job.readFiles += try OverlayOptions.readFiles(arguments)
        let quiet = arguments.isSet(CommonFlags.quiet)
        let stop = StopSignal()
        let interrupt = Console.onInterrupt { stop.stop() }
        defer { interrupt.cancel() }
        let progress = ProgressLine(enabled: !quiet)
        let summary = try progress.showing {
            try job.run(progress: progress.update, stop: stop)
        }
        if let readError = summary.readError { Console.warn("\(job.input): \(readError); the output holds the frames read") }
        if !quiet {
            var line = "\(summary.frames) frames, \(summary.faces) faces drawn, \(summary.tracks) tracks"
            if summary.interpolated > 0 { line += ", \(summary.interpolated) interpolated" }
            if let diff = summary.diff {
                line += ", diff: \(diff.matched) matched, \(diff.missed) missed, \(diff.falseDetections) false, "
                    + "\(diff.switches) ID switches"
            }
            line += String(format: ", %.2f s", summary.seconds)
            Console.info(line)
        }
        return summary.interrupted ? Console.interruptStatus : 0
    }
}
