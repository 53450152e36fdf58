import FaceTrack
import Foundation
import MediaIO
import Segments

/// `facetrack split-plan INPUT --segments N`: cuts one long video into key-frame-aligned segments
/// with an overlap, for `process --segment` on several machines and `stitch`.
enum SplitPlanCommand: Command {
    static let name = "split-plan"
    static let synopsis = "split-plan INPUT --segments N"
    static let summary = "plan key-frame-aligned segments of one long video (for --segment and stitch)"
    static let segments = Option<Int>.number("--segments", in: 1...10_000, help: "cut into about N segments of equal length")
    static let segmentSeconds = Option<Double>.number("--segment-seconds", "S", in: 1...1_000_000,
                                                      help: "or: cut into segments of about S seconds")
    static let overlap = Option<Double>.number(
        "--overlap", "S", in: 0...600,
        help: "seconds each segment also reads before its start (default \(Int(SplitPlan.defaultOverlap)); see docs/batch.md)")
    static let output = Option.text("--output", short: "-o", "PLAN", help: "write the plan to PLAN (default: standard output)")
    static let options = [segments.spec, segmentSeconds.spec, overlap.spec, output.spec, CommonFlags.quiet.spec,
                          CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack split-plan INPUT (--segments N | --segment-seconds S) [--overlap S] [-o PLAN]

        Lists segments of INPUT that start at key frames and together cover every frame once, as
        JSON Lines: a header line (the input, its size and time, frames, time base, overlap), then
        one line per segment (segment, start_frame, end_frame, start_time, end_time, and decode_frame:
        the earlier key frame its overlap starts at). Only packet headers are read, no frame is
        decoded. A video with few key frames gets fewer segments than asked (at most one per key frame).
        Segments write their files beside PLAN (PLAN minus .jsonl, then .part-NNN.*).

        OPTIONS:
        \(options.map(\.helpEntry).joined(separator: "\n"))

        EXAMPLE:
          facetrack split-plan hearing.mp4 --segments 8 -o work/hearing.plan.jsonl
          facetrack process hearing.mp4 --segment 3 --plan work/hearing.plan.jsonl -o hearing-faces.mp4 --csv hearing.csv
          facetrack stitch work/hearing.plan.jsonl --out results/
        """
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty
                             ? "split-plan needs an INPUT file"
                             : "split-plan takes one INPUT file (\(arguments.describePositionals()))")
        }
        let count = try arguments.value(segments), seconds = try arguments.value(segmentSeconds)
        let cut: SplitPlan.Cut
        switch (count, seconds) {
        case let (count?, nil): cut = .segments(count)
        case let (nil, seconds?): cut = .seconds(seconds)
        case (nil, nil): throw UsageError("split-plan needs --segments N or --segment-seconds S")
        default: throw UsageError("give --segments or --segment-seconds, not both")
        }
        let input = arguments.positionals[0]
        let plan = try SplitPlan(index: try KeyframeIndex.scan(path: input), cut: cut,
                                 overlap: try arguments.value(overlap) ?? SplitPlan.defaultOverlap)
        let text = try plan.text()
        if let path = try arguments.value(output), path != "-" {
            try AtomicOutput.write(Data(text.utf8), to: path, inputs: [input])
        } else {
            print(text, terminator: "")
        }
        if !arguments.isSet(CommonFlags.quiet) {
            let wanted = count.map { $0 > plan.segments.count ? " (\($0) asked; the video has too few key frames)" : "" } ?? ""
            let longest = plan.segments.map { $0.endTime - $0.startTime }.max() ?? 0
            Console.info("\(plan.segments.count) segments\(wanted) of \(plan.frames) frames, longest "
                         + String(format: "%.1f s, overlap %.1f s", longest, plan.overlap))
        }
        return 0
    }
}
