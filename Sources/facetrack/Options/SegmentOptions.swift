import FaceTrack
import Foundation
import MediaIO
import Segments

/// `process --segment K --plan PLAN` (one segment of a split plan, for a job array) and
/// `process --jobs N` (the whole file as N segments in local processes, stitched at the end).
struct SegmentOptions: OptionGroup {
    static let segment = Option<Int>.number("--segment", "K", in: 0...1_000_000,
                                            help: "process only segment K of --plan (its files go beside the plan; see stitch)")
    static let plan = Option.text("--plan", "PLAN", help: "the split plan (facetrack split-plan) --segment or --jobs uses")
    static let jobs = Option<Int>.number("--jobs", in: 1...256, help: """
        split the file into N segments run as N processes at once, stitched at the end
        (the plan and parts go beside the first output, deleted once stitched, or at --plan and kept;
        a rerun redoes only the segments not finished)
        """)
    static let options = [segment.spec, plan.spec, jobs.spec]

    /// Runs `process` as a segment or as local segments when asked; nil when neither was.
    static func run(_ arguments: ParsedArguments, job: FaceTrackJob, quiet: Bool) throws -> Int32? {
        let segment = try arguments.value(segment), planPath = try arguments.value(plan), jobs = try arguments.value(jobs)
        switch (segment, jobs) {
        case (nil, nil):
            if planPath != nil { throw UsageError("--plan goes with --segment K or --jobs N") }
            return nil
        case (_?, _?): throw UsageError("give --segment or --jobs, not both")
        case _ where job.span != nil:
            throw UsageError("--start/--end cannot be combined with --segment or --jobs: a split plan's segments cover the whole video")
        case _ where job.outputs.json != nil:
            throw UsageError("--json is not written by --segment or --jobs (stitch joins CSV): use --csv")
        case let (k?, nil):
            guard let planPath else { throw UsageError("--segment needs --plan PLAN (made by facetrack split-plan)") }
            return try runSegment(k, planPath: planPath, job: job, quiet: quiet)
        case let (nil, n?):
            return try runLocal(jobs: n, planPath: planPath, arguments: arguments, job: job, quiet: quiet)
        }
    }

    /// One segment: its tracks, embeddings and video part beside the plan; its record last.
    private static func runSegment(_ k: Int, planPath: String, job: FaceTrackJob, quiet: Bool) throws -> Int32 {
        let plan = try SplitPlan(path: planPath)
        let runner: SegmentRunner
        do {
            runner = try SegmentRunner(plan: plan, planPath: planPath, segment: k, job: job)
        } catch let error as SegmentOptionError {
            throw UsageError(error.description)
        }
        if try runner.finishedRecord() != nil {
            if !quiet { Console.info("segment \(k) is already done (\(runner.files.record(k)); delete it to run it again)") }
            return 0
        }
        let stop = StopSignal()
        let interrupt = Console.onInterrupt { stop.stop() }
        defer { interrupt.cancel() }
        let progress = ProgressLine(enabled: !quiet)
        let result: (record: SegmentRecord, summary: ProcessingSummary)
        do {
            result = try progress.showing { try runner.run(progress: progress.update, stop: stop) }
        } catch where stop.isStopped {
            Console.warn("interrupted: segment \(k) wrote no record; run it again")
            return Console.interruptStatus
        }
        if !quiet {
            let own = plan.segments[k]
            Console.info("segment \(k) of \(plan.segments.count): frames \(own.startFrame) to \(own.endFrame - 1) "
                         + "(read from \(own.decodeFrame) to \(result.record.readEnd - 1)); "
                         + ProcessCommand.describe(result.summary))
        }
        return 0
    }

    /// The plan for `--jobs`: PLAN when given, else beside the first output, named after the input.
    private static func defaultPlan(for job: FaceTrackJob) -> String {
        let o = job.outputs
        let first = [o.csv, o.video, o.mot, o.tracksSummary, o.landmarks, o.report].compactMap { $0 }.first { $0 != "-" }
        let folder = first.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        let stem = ((job.input as NSString).lastPathComponent as NSString).deletingPathExtension
        return ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(stem + ".plan.jsonl")
    }

    /// `--jobs N`: plans N segments (or reuses the plan of an earlier run of the same file), runs
    /// the unfinished ones as processes at once, stitches them into the outputs named.
    private static func runLocal(jobs: Int, planPath: String?, arguments: ParsedArguments, job: FaceTrackJob, quiet: Bool) throws
        -> Int32 {
        let path = planPath ?? defaultPlan(for: job)
        // The plan of an earlier run stands when it is the plan this run would make (same file,
        // same cut): its finished segments are kept.
        let plan = try SplitPlan(index: try KeyframeIndex.scan(path: job.input), cut: .segments(jobs))
        if (try? SplitPlan(path: path)) != plan {
            try AtomicOutput.write(Data(try plan.text().utf8), to: path, inputs: [job.input])
        }
        let stitcher = try Stitcher(planPath: path)
        let files = stitcher.files
        let todo = stitcher.unfinishedSegments()
        if !quiet {
            Console.info("\(plan.segments.count) segments (plan \(path)); running \(todo.count) at once"
                         + (todo.count < plan.segments.count ? " (the others are done)" : ""))
        }
        // Each segment: this command line without --jobs/--plan, on its share of the cores.
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var childArguments = ["process"] + withoutLocalOptions(arguments.arguments) + ["--quiet"]
        if !arguments.contains(EncoderOptions.threads.spec) {
            childArguments += ["--threads", String(max(1, cores / max(1, todo.count)))]
        }
        let local = LocalSegments(executable: executablePath, arguments: childArguments, files: files)
        let message = "interrupt: stopping the segments (press Ctrl-C again to abort)"
        let interrupt = Console.onInterrupt(message: message) { local.stop() }
        defer { interrupt.cancel() }
        let started = Date()
        let outcomes = try local.run(todo) { outcome in
            guard !quiet else { return }
            if outcome.status == 0 {
                Console.info(String(format: "segment %d done in %.1f s", outcome.segment, outcome.seconds))
            } else {
                Console.warn("segment \(outcome.segment) failed (exit \(outcome.status)): \(outcome.lastLine ?? "no message"); "
                             + "log \(outcome.log)")
            }
        }
        let failed = outcomes.filter { $0.status != 0 }
        if !failed.isEmpty {
            let interrupted = failed.allSatisfy { $0.status == 130 || $0.status == 143 }
            Console.error(SegmentError.missingSegments(path, failed.map(\.segment), count: plan.segments.count))
            return interrupted ? Console.interruptStatus : 1
        }
        let records = try stitcher.records()
        let summary = try stitcher.stitch(into: job.outputs, records: records)
        // Parts of a plan this run named for itself are its own business: gone once stitched.
        if planPath == nil {
            for k in plan.segments.indices {
                let parts = [files.record(k), files.csv(k), local.log(k)]
                    + [records[k].videoPart, records[k].landmarksPart].compactMap { $0 }
                        .map { (files.folder as NSString).appendingPathComponent($0) }
                for part in parts { unlink(part) }
            }
            unlink(path)
        }
        if !quiet {
            let wall = Date().timeIntervalSince(started)
            Console.info(StitchCommand.describe(summary) + String(format: "; %.1f s wall for this run", wall))
        }
        return 0
    }

    /// The arguments without `--jobs N`, `--plan PLAN` and `--quiet` (up to `--`).
    static func withoutLocalOptions(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[(index - 1)...]
                break
            }
            if argument == "--jobs" || argument == "--plan" { index += 1; continue }
            if argument.hasPrefix("--jobs=") || argument.hasPrefix("--plan=") || argument == "--quiet" || argument == "-q" {
                continue
            }
            result.append(argument)
        }
        return result
    }

    /// This program's executable.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
