import FaceTrack

/// The files `process` writes. `batch` names these itself (`--out`, `--outputs`).
struct OutputOptions: OptionGroup {
    static let video = Option.output("--output", short: "-o", "OUT",
                                   help: "overlaid video to write; the container follows the extension (.mp4, .mkv, .mov...)")
    static let csv = Option.output("--csv", "FILE", help: "per-frame face tracks as CSV (\"-\" for standard output)")
    static let mot = Option.output("--mot", "FILE",
                                 help: "also write MOTChallenge text (frame,id,x,y,w,h,conf,-1,-1,-1; frames from 1)")
    static let tracksSummary = Option.output(
        "--tracks-summary", "FILE",
        help: "also write a JSON list of tracks (first/last frame, frame count, mean confidence)")
    static let json = Option.output("--json", "FILE",
                                    help: "per-frame face tracks as JSON Lines: one object per face and frame, the CSV's fields")
    static let landmarks = Option.output(
        "--landmarks", "FILE", help: "the 468 face-mesh points of each detected face as CSV (frame,track_id,point,x,y)")

    static let report = Option.output(
        "--report", "FILE", help: "a self-contained HTML report of the run (timeline, thumbnails, plots), written at the end")

    static let options = [video, csv, json, mot, tracksSummary, landmarks, report].map(\.spec)

    let outputs: JobOutputs

    init(_ arguments: ParsedArguments) throws {
        outputs = JobOutputs(video: try arguments.value(Self.video), csv: try arguments.value(Self.csv),
                             mot: try arguments.value(Self.mot), tracksSummary: try arguments.value(Self.tracksSummary),
                             landmarks: try arguments.value(Self.landmarks), report: try arguments.value(Self.report),
                             json: try arguments.value(Self.json))
    }
}

/// `--quiet` and `--help`, which every command has.
enum CommonFlags {
    static let quiet = Flag("--quiet", short: "-q", help: "no progress and no summary line")
    static let help = Flag("--help", short: "-h", help: "show this help")
    static let stats = Flag("--stats", help: "after the run: CPU seconds and share per stage, frames per second and peak memory "
                                            + "(the first thing to look at when a run is slow; see docs/performance.md)")
}
