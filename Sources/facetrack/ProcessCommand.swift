import FaceTrack
import Foundation

/// `facetrack process INPUT [-o OUT] [--csv FILE] ...`: one video in, overlaid video and/or CSV out.
enum ProcessCommand: Command {
    static let name = "process"
    static let synopsis = "process INPUT [-o OUT] [--csv FILE]"
    static let summary = "overlay faces on a video and/or export face tracks as CSV"
    static let startsWorkers = true
    static let options = OutputOptions.options + SpanOptions.options + JobOptions.options + SegmentOptions.options
        + [CommonFlags.quiet.spec, CommonFlags.stats.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack process INPUT [-o OUT] [--csv FILE] [options]

        Finds and tracks faces in INPUT (any video or image FFmpeg reads) and writes an overlaid copy
        (-o) and/or the per-frame face tracks as CSV (--csv). Without -o no video is encoded.

        OUTPUTS:
        \(OutputOptions.help)

        SPAN:
        \(SpanOptions.help)

        \(JobOptions.help())

        ONE FILE ON SEVERAL MACHINES OR PROCESSES (docs/batch.md):
        \(SegmentOptions.help)

        OTHER:
        \(CommonFlags.quiet.spec.helpEntry)
        \(CommonFlags.stats.spec.helpEntry)
        \(CommonFlags.help.spec.helpEntry)

        EXAMPLES:
          facetrack process clip.mp4 -o clip-faces.mp4 --csv clip.csv
          facetrack process interview.mov --csv faces.csv --detector blazeface --model short
          facetrack process long.mkv -o out.mkv --detect-every 3 --crf 20 --preset fast
          facetrack process party.mp4 -o party-hearts.mp4 --overlay boxes,eyes,labels --eye-sprite heart
          facetrack process street.mp4 -o street-anon.mp4 --anonymize blur --overlay none
          facetrack process talk.mp4 --csv talk.csv --attributes all --landmarks talk-mesh.csv
          facetrack process hearing.mp4 -o part.mp4 --json part.jsonl --start 1:30:00 --end 1:35:00
          facetrack process hearing.mp4 --jobs 4 -o hearing-faces.mp4 --csv hearing.csv
        """
    }

    /// The command: parses, runs, prints the summary; returns the exit status.
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "process needs an INPUT file"
                                                           : "process takes one INPUT file (\(arguments.describePositionals()))")
        }
        let quiet = arguments.isSet(CommonFlags.quiet)
        let options = try JobOptions(arguments)
        options.warnings.forEach { Console.warn($0) }
        var job = options.job(input: arguments.positionals[0], outputs: try OutputOptions(arguments).outputs)
        job.span = try SpanOptions(arguments).span
        job.notice = { Console.warn($0) }
        if let status = try SegmentOptions.run(arguments, job: job, quiet: quiet) { return status }
        // Said even with --quiet: a whole run that writes nothing is worth one line.
        if job.outputs.isEmpty {
            Console.warn("no -o, --csv, --json, --mot, --tracks-summary, --landmarks or --report given: faces are counted but nothing is written")
        }

        let stop = StopSignal()
        let interrupt = Console.onInterrupt { stop.stop() }
        defer { interrupt.cancel() }
        let progress = ProgressLine(enabled: !quiet)
        let summary: ProcessingSummary
        do {
            summary = try progress.showing { try job.run(progress: progress.update, stop: stop) }
        } catch let error as MediaError {
            guard case .stoppedBeforeFirstFrame = error else { throw error }
            Console.warn("interrupted: \(error)")
            return Console.interruptStatus
        }
        if let readError = summary.readError {
            Console.warn("\(job.input): \(readError); the outputs hold the frames read")
        }
        if !quiet { Console.info(describe(summary)) }
        if arguments.isSet(CommonFlags.stats), let statistics = summary.statistics {
            Console.info(statistics.table(frames: summary.frames, seconds: summary.seconds))
        }
        if summary.interrupted {
            let at = summary.lastTime.map { String(format: " (%.3f s)", $0) } ?? ""
            Console.warn("interrupted: stopped after frame \(max(0, summary.frames - 1))\(at); outputs hold the frames done")
            return Console.interruptStatus
        }
        return 0
    }

    /// The one summary line.
    static func describe(_ s: ProcessingSummary) -> String {
        var text = "\(s.frames) frames, \(s.faces) faces, \(s.tracks) tracks"
        if s.tracks > 0 { text += " (longest \(s.longestTrack) frames)" }
        text += String(format: ", %.2f s, %.1f fps", s.seconds, s.framesPerSecond)
        if s.damagedPackets > 0 { text += ", \(s.damagedPackets) damaged packets skipped" }
        if s.corruptFrames > 0 { text += ", \(s.corruptFrames) corrupt frames" }
        if s.invalidDetections > 0 { text += ", \(s.invalidDetections) invalid detections dropped" }
        let p = s.detectionPasses
        if p.crops + p.tiles > 0 { text += ", detector passes: \(p.full) whole-frame, \(p.crops) crops, \(p.tiles) tiles" }
        if p.lookBack > 0 { text += ", \(p.lookBack) look-back crops" }
        if p.closeUp > 0 { text += ", \(p.closeUp) close-up passes" }
        if s.shotCuts > 0 { text += ", \(s.shotCuts) shot cuts" }
        if s.fallbacks > 0 { text += ", \(s.fallbacks) crops or tiles redone as whole-frame passes" }
        return text
    }
}
