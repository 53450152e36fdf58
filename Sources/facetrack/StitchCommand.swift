import FaceTrack
import Foundation
import Segments

/// `facetrack stitch PLAN --out DIR`: the segments of a split plan joined into the outputs of one run.
enum StitchCommand: Command {
    static let name = "stitch"
    static let synopsis = "stitch PLAN --out DIR"
    static let summary = "join the segments of a split plan into one run's outputs"
    static let out = Option.text("--out", "DIR",
                                 help: "folder for the outputs (created), named as the segments' -o, --csv... were")
    static let missing = Flag("--missing", help: "only print the segments not finished, as an sbatch --array list (empty: none)")
    static let options = [out.spec, missing.spec, CommonFlags.quiet.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack stitch PLAN --out DIR
               facetrack stitch PLAN --missing

        Joins the segments of PLAN (each run by `facetrack process INPUT --segment K --plan PLAN`
        with the same options) into the outputs one run would write, named as on the segments'
        command line, in DIR: the tracks CSV (always), and the MOT file, track summary, landmarks,
        report and video when the segments were run with them. Tracks are matched across each seam
        by their boxes on the frames both segments read; with re-identification on, the segments'
        recorded identity decisions are made again over the whole video, as one run makes them. IDs
        are renumbered for the whole video. The video parts are joined by
        stream copy, with the original's audio. Segments not finished are listed by number (exit 1);
        run only those again. See docs/batch.md.

        OPTIONS:
        \(options.map(\.helpEntry).joined(separator: "\n"))

        EXAMPLE:
          facetrack stitch work/hearing.plan.jsonl --out results/
        """
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "stitch needs the PLAN file"
                                                           : "stitch takes one PLAN file (\(arguments.describePositionals()))")
        }
        let stitcher = try Stitcher(planPath: arguments.positionals[0])
        if arguments.isSet(missing) {
            print(SegmentError.arraySpec(stitcher.unfinishedSegments()))
            return 0
        }
        guard let folder = try arguments.value(out) else { throw UsageError("stitch needs --out DIR (or --missing)") }
        let records = try stitcher.records()
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw SegmentError.cannotRead(folder, reason: "cannot create the folder")
        }
        let summary = try stitcher.stitch(into: stitcher.outputs(in: folder, records: records), records: records)
        if !arguments.isSet(CommonFlags.quiet) { Console.info(describe(summary)) }
        return 0
    }

    /// The summary line.
    static func describe(_ s: Stitcher.Summary) -> String {
        var text = "stitched \(s.segments) segments: \(s.frames) frames, \(s.faces) faces, \(s.tracks) tracks "
            + "(\(s.continuedByBoxes) continued across a seam by their boxes, \(s.continuedByEmbeddings) by their embeddings)"
        if let frames = s.videoFrames { text += ", video \(frames) frames joined by stream copy" }
        return text + String(format: "; segments took %.1f s (CPU %.1f s) in all", s.segmentSeconds, s.segmentCPUSeconds)
    }
}
