import Dispatch
import FaceTrack
import Foundation

/// `facetrack process INPUT [-o OUT] [--csv FILE] ...`: one video in, overlaid video and/or CSV out.
enum ProcessCommand {
    static let help = """
    USAGE: facetrack process INPUT [-o OUT] [--csv FILE] [options]

    Finds and tracks faces in INPUT (any video or image FFmpeg reads) and writes an overlaid copy
    (-o) and/or the per-frame face tracks as CSV (--csv). Without -o no video is encoded.

    OPTIONS:
      -o, --output OUT      overlaid video to write; the container follows the extension (.mp4, .mkv, .mov...)
      --csv FILE            per-frame face tracks as CSV ("-" for standard output)
    \(DetectorOptions.help)
    \(TrackingOptions.help)
    \(OverlayOptions.help)
      --crf N               encoder quality, 0 (best) to 51 (default 23)
      --preset P            libx264/libx265 speed preset (default medium)
      --codec C             libx264, libx265 or mpeg4 (default libx264)
      --threads N           worker threads (default: one per core)
      --quiet               no progress and no summary line
      -h, --help            show this help

    EXAMPLES:
      facetrack process clip.mp4 -o clip-faces.mp4 --csv clip.csv
      facetrack process interview.mov --csv faces.csv --detector blazeface --model short
      facetrack process long.mkv -o out.mkv --detect-every 3 --crf 20 --preset fast
      facetrack process party.mp4 -o party-hearts.mp4 --overlay boxes,eyes,labels --eye-sprite heart
      facetrack process street.mp4 -o street-anon.mp4 --anonymize blur --overlay none
    """

    /// The command: parses, runs, prints the summary; returns the exit status.
    static func run(_ raw: [String]) throws -> Int32 {
        if raw.contains("--help") || raw.contains("-h") { print(help); return 0 }
        let quiet = raw.contains("--quiet") || raw.contains("-q")
        let summary = try execute(raw, progress: !quiet, interruptible: true)
        if let readError = summary.readError {
            Console.warn("\(summary.input): \(readError); the outputs hold the frames read")
        }
        if !quiet { Console.info(describe(summary.processing)) }
        if summary.processing.interrupted {
            let at = summary.processing.lastTime.map { String(format: " (%.3f s)", $0) } ?? ""
            Console.warn("interrupted: stopped after frame \(max(0, summary.processing.frames - 1))\(at); outputs hold the frames done")
            return 130
        }
        return 0
    }

    /// What one `process` run did, for callers that run it for many files (batch, check).
    struct Outcome {
        /// The input path.
        let input: String
        /// The pipeline's summary.
        let processing: ProcessingSummary
        /// Set when the input ended early.
        var readError: String? { processing.readError }
    }

    /// Parses `process` arguments (INPUT and options, as on the command line) and runs the
    /// pipeline, printing nothing but progress. Throws `UsageError` for bad arguments and the
    /// pipeline's errors otherwise. `interruptible` installs the SIGINT handler.
    static func execute(_ raw: [String], progress: Bool, interruptible: Bool) throws -> Outcome {
        let arguments = try Arguments(
            raw,
            valued: DetectorOptions.valued.union(TrackingOptions.valued).union(OverlayOptions.valued)
                .union(["--output", "--csv", "--crf", "--preset", "--codec", "--threads"]),
            flags: TrackingOptions.flags.union(["--quiet", "--help"]), aliases: ["-o": "--output", "-h": "--help", "-q": "--quiet"])
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "process needs an INPUT file" : "process takes one INPUT file (got \(arguments.positionals.count))")
        }
        var detector = try DetectorOptions(arguments)
        let tracking = try TrackingOptions(arguments)
        let overlays = try OverlayOptions(arguments)
        let encoder = EncoderSettings(
            codec: try arguments.choice("--codec", from: EncoderSettings.codecs) ?? "libx264",
            crf: try arguments.int("--crf", in: 0...51) ?? 23,
            preset: try arguments.choice("--preset", from: EncoderSettings.presets) ?? "medium",
            threads: try arguments.int("--threads", in: 0...256) ?? 0)
        let options = ProcessingOptions(
            input: arguments.positionals[0], output: arguments.string("--output"), csvPath: arguments.string("--csv"),
            encoder: encoder, threads: encoder.threads, maxFaces: detector.maxFaces,
            detectEvery: tracking.detectEvery)
        if options.output == nil && options.csvPath == nil && !arguments.has("--quiet") {
            Console.warn("no -o or --csv given: faces are counted but nothing is written")
        }

        // Open the input once up front: its errors come before any model is loaded, and the
        // tracker needs the frame rate for its default max-age.
        let framesPerSecond = try Demuxer(path: options.input).framesPerSecond
        let tracker = tracking.makeTracker(framesPerSecond: framesPerSecond, detector: &detector)
        let outputs = try TrackOutputs(tracking, inputs: [options.input])
        let factory = detector
        let processor = try VideoProcessor(options: options, detectorFactory: { try factory.makeDetector() },
                                           tracker: tracker, renderer: overlays.makeRenderer(), observer: outputs.observe)
        let interrupt = interruptible ? Console.onInterrupt { processor.requestStop() } : nil
        defer { interrupt?.cancel() }
        let summary = try processor.run(progress: progress)
        try outputs.finish(tracker: tracker)
        return Outcome(input: options.input, processing: summary)
    }

    /// The one summary line.
    static func describe(_ s: ProcessingSummary) -> String {
        var text = "\(s.frames) frames, \(s.faces) faces, \(s.tracks) tracks"
        if s.tracks > 0 { text += " (longest \(s.longestTrack) frames)" }
        text += String(format: ", %.2f s, %.1f fps", s.seconds, s.framesPerSecond)
        if s.damagedPackets > 0 { text += ", \(s.damagedPackets) damaged packets skipped" }
        if s.corruptFrames > 0 { text += ", \(s.corruptFrames) corrupt frames" }
        if s.invalidDetections > 0 { text += ", \(s.invalidDetections) invalid detections dropped" }
        return text
    }
}
