import Detection
import FaceCore
import FaceTrack
import Foundation

/// The `facetrack` command: dispatches to a subcommand and maps errors to exit statuses
/// (0 success, 1 failure, 2 usage error, 130 interrupted, 143 terminated).
let version = "facetrack 0.1.0"

let usage = """
USAGE: facetrack <command> [options]

Finds, tracks and marks faces in recorded video.

COMMANDS:
  process INPUT [-o OUT] [--csv FILE]   overlay faces on a video and/or export face tracks as CSV
  detect IMAGE... [--csv FILE]          find faces in still images
  eval --truth T.csv --pred P.csv       score face tracks against ground truth
  check [MANIFEST] [--junit FILE]       run and score the reference clips (samples/manifest.json)
  batch INPUT... --out DIR              process many files or folders: concurrent, resumable, shardable
  merge-results FILE...                 combine the --results files of batch shards into one report
  report TRACKS.csv -o REPORT.html      a self-contained HTML page: timeline, thumbnails, plots
  find --face PHOTO VIDEO...            time ranges where the person in PHOTO appears (JSON Lines)

OPTIONS:
  --version     print the version
  -h, --help    show this help; `facetrack <command> --help` shows a command's options

EXAMPLES:
  facetrack process clip.mp4 -o clip-faces.mp4 --csv tracks.csv
  facetrack detect photo.jpg
  facetrack batch videos/ --out faces/ --results results.jsonl
"""

FFmpegLog.configureFromEnvironment()
// Memory that cannot be had: one line, no temporary file left, exit 1 (not a trap and a backtrace).
OutOfMemory.install { message in
    Console.standardError("facetrack: error: \(message)\n")
    AtomicOutput.discardAll()
    JobOutputs.removeWrittenByRunningJobs()
    _exit(1)
}
OutOfMemory.coverNetworks()
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    // Commands that decode and detect: below this limit their threads may not start, and
    // libdispatch waits for them instead of failing.
    if ["process", "detect", "batch", "check", "find"].contains(arguments.first ?? ""),
       let refusal = OutOfMemory.checkAddressSpace() {
        throw InputRefused(description: refusal)
    }
    switch arguments.first {
    case nil:
        Console.standardError(usage + "\n")
        status = 2
    case "--version":
        print(version)
        status = 0
    case "-h", "--help", "help":
        print(usage)
        status = 0
    case "process":
        status = try ProcessCommand.run(Array(arguments.dropFirst()))
    case "detect":
        status = try DetectCommand.run(Array(arguments.dropFirst()))
    case "eval":
        status = try EvalCommand.run(Array(arguments.dropFirst()))
    case "check":
        status = try CheckCommand.run(Array(arguments.dropFirst()))
    case "batch":
        status = try BatchCommand.run(Array(arguments.dropFirst()))
    case "merge-results":
        status = try MergeResultsCommand.run(Array(arguments.dropFirst()))
    case "report":
        status = try ReportCommand.run(Array(arguments.dropFirst()))
    case "find":
        status = try FindCommand.run(Array(arguments.dropFirst()))
    case let other?:
        throw UsageError("unknown command '\(other)' (commands: process, detect, eval, check, batch, merge-results, report, find; see facetrack --help)")
    }
} catch let error as UsageError {
    Console.error(error)
    Console.standardError("facetrack: see 'facetrack \(arguments.first.map { $0.hasPrefix("-") ? "" : $0 + " " } ?? "")--help'\n")
    status = 2
} catch let error as InputRefused {
    Console.error(error)
    status = 2
} catch {
    Console.error(error)
    status = 1
}
// Whatever still holds an output open, a failed or interrupted run leaves no temporary file.
if status != 0 { AtomicOutput.discardAll() }
exit(status)
