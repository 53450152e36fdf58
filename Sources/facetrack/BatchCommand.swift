import Batch
import FaceTrack
import FaceCore
import Foundation
import Synchronization

/// `facetrack batch INPUT... --out DIR`: `process` over many files, concurrently, resumably,
/// optionally one shard of a job array.
enum BatchCommand: Command {
    static let name = "batch"
    static let synopsis = "batch INPUT... --out DIR"
    static let summary = "process many files or folders: concurrent, resumable, shardable"
    static let startsWorkers = true
    static let out = Option.output("--out", "DIR", help: "output folder (created; when inside an input folder it is not scanned)")
    static let list = Option.text(
        "--list", "FILE", help: "also process the paths listed in FILE, one per line (relative to the current folder)")
    static let outputs = Option("--outputs", "LIST",
                                help: "what to write per input: video, csv, mot, tracks, landmarks, report (default video,csv)") {
        try OutputKind.parseList($0)
    }
    static let jobs = Option<Int>.number("--jobs", in: 1...256,
                                         help: "files processed at once (default: \(defaultJobs(cores: cores)) here; see docs/batch.md)")
    static let threads = Option<Int>.number("--threads", in: 0...256,
                                            help: "worker threads per file (default: cores / jobs, at least 1)")
    static let force = Flag("--force", help: "redo inputs whose outputs are up to date")
    static let results = Option.output(
        "--results", "FILE", help: "write a JSON Lines record per input (path, status, frames, faces, tracks, seconds, error, stats)")
    static let shard = Option.text("--shard", "I/N", help: """
        process only slice I of N of the sorted inputs (I from 0 to N-1), or
        auto: from SLURM_ARRAY_TASK_ID/_COUNT/_MIN or JOB_COMPLETION_INDEX
        """)
    static let shardCount = Option<Int>.number("--shard-count", in: 1...1_000_000,
                                               help: "the N for --shard auto (Kubernetes Indexed Jobs give only the index)")
    static let extensions = Option.text(
        "--extensions", "LIST",
        help: "extensions scanned for in folders (default \(InputCollector.defaultExtensions.sorted().joined(separator: ",")))")
    static let quiet = Flag("--quiet", short: "-q", help: "no progress and no summary table (failures are still reported)")
    static let report = Flag("--report", help: "also write NAME.report.html per input (as --outputs report) and DIR/index.html")

    static let ownOptions = [out.spec, list.spec, outputs.spec, jobs.spec, threads.spec, force.spec, results.spec, shard.spec,
                             shardCount.spec, extensions.spec, quiet.spec, report.spec, CommonFlags.stats.spec,
                             CommonFlags.help.spec]
    /// The job's options pass to every file; `--threads` has batch's own default.
    static let processOptions = JobOptions.options.filter { $0 != EncoderOptions.threads.spec }
    /// Recognised only to be refused: batch names each file's outputs.
    static let options = ownOptions + processOptions + OutputOptions.options.filter { $0 != OutputOptions.report.spec }

    static var help: String {
        """
        USAGE: facetrack batch INPUT... [--list FILE] --out DIR [options] [process options]

        Runs `process` on many files: INPUTs are files, folders (scanned recursively for video and image
        extensions) or quoted glob patterns; --list adds one path per line. The outputs mirror the input
        tree under DIR: NAME.mp4 (overlaid copy; a still image keeps its extension) and NAME.csv.
        A rerun skips inputs whose outputs exist and are not older than the input. Exit status: 0 when
        every file is done or skipped, 1 when any failed, 2 for a usage error, 130 when interrupted
        (Ctrl-C starts no new file and lets the running ones finish; a second Ctrl-C aborts).

        OPTIONS:
        \(ownOptions.map(\.helpEntry).joined(separator: "\n"))

        Every `process` option below is applied to each file. -o/--csv/--mot/--tracks-summary/--landmarks
        are named by batch (--out, --outputs).

        \(JobOptions.help(excluding: [EncoderOptions.threads.spec]))

        EXAMPLES:
          facetrack batch videos/ --out faces/ --results results.jsonl
          facetrack batch 'clips/*.mov' --out out --outputs csv --detector blazeface --jobs 2
          facetrack batch --list files.txt --out /scratch/out --shard auto --results results-$SLURM_ARRAY_TASK_ID.jsonl
        """
    }

    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Files at once by default: one per two cores, at least one (measured: see docs/batch.md).
    static func defaultJobs(cores: Int) -> Int { max(1, cores / 2) }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        // --report is batch's own flag here (a page per input plus index.html), not process's --report FILE.
        if let named = OutputOptions.options.first(where: { $0 != OutputOptions.report.spec && arguments.contains($0) }) {
            throw UsageError("batch chooses the output names: use --out DIR and --outputs instead of \(named.name)")
        }
        // The process options are checked once here, so a typo is a usage error before any file.
        let jobOptions = try JobOptions(arguments)
        jobOptions.warnings.forEach { Console.warn($0) }
        var template = jobOptions.template

        guard let outPath = try arguments.value(Self.out) else { throw UsageError("batch needs --out DIR") }
        var kinds = try arguments.value(Self.outputs) ?? [.video, .csv]
        let writesReports = arguments.isSet(Self.report) || kinds.contains(.report)
        if writesReports && !kinds.contains(.report) { kinds.append(.report) }
        let jobCount = try arguments.value(Self.jobs) ?? defaultJobs(cores: cores)
        template.threads = try arguments.value(Self.threads) ?? max(1, cores / jobCount)
        let shardCount = try arguments.value(Self.shardCount)
        let shardText = try arguments.value(Self.shard)
        if shardCount != nil && shardText != "auto" { throw UsageError("--shard-count goes with --shard auto") }
        let slice = try shardText.map { text in
            try usage { try Shard.parse(text, environment: ProcessInfo.processInfo.environment, countOverride: shardCount) }
        }
        var collector = InputCollector()
        if let list = try arguments.value(Self.extensions) {
            collector.extensions = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ". ")).lowercased() })
                .subtracting([""])
            guard !collector.extensions.isEmpty else {
                throw UsageError("invalid value '\(list)' for --extensions: expected one or more extensions, e.g. mp4,mov")
            }
        }
        let quiet = arguments.isSet(Self.quiet)
        let listFile = try arguments.value(Self.list)
        guard !arguments.positionals.isEmpty || listFile != nil else {
            throw UsageError("batch needs INPUT files or folders, or --list FILE")
        }

        var outFolder = InputCollector.resolve(outPath)
        if arguments.positionals.contains(where: { InputCollector.resolve($0) == outFolder }) {
            throw UsageError("the output folder \(outPath) is an input folder; choose another --out (a subfolder is fine)")
        }
        collector.excluded = [outFolder]
        let collection = try collector.collect(arguments.positionals, listFiles: listFile.map { [$0] } ?? [])
        for warning in collection.warnings { Console.warn(warning) }
        if collection.duplicates > 0 && !quiet { Console.info("\(collection.duplicates) repeated inputs taken once") }
        guard !collection.inputs.isEmpty else {
            throw BatchError.noInputs(extensions: collector.extensions.sorted())
        }
        // Created once there is something to write into it (a batch with no input leaves no folder).
        do {
            try FileManager.default.createDirectory(atPath: outPath, withIntermediateDirectories: true)
        } catch {
            throw AtomicOutputError.unwritable(outPath, reason: "cannot create the output folder")
        }
        outFolder = InputCollector.resolve(outPath)
        let layout = OutputLayout(folder: outFolder, kinds: kinds, inputs: collection.inputs)
        // Temporary files of batches killed outright (SIGKILL, a lost node) are never renamed.
        AtomicOutput.removeStalePartials(under: outFolder)
        AtomicOutput.sweepsStaleFiles.store(false, ordering: .relaxed)
        let inputs = slice?.select(collection.inputs) ?? collection.inputs
        if let slice, !quiet {
            Console.info("shard \(slice): \(inputs.count) of \(collection.inputs.count) inputs")
        }
        try checkPlannedOutputs(layout: layout, inputs: collection.inputs)
        let resultsPath = try arguments.value(Self.results)
        if let resultsPath {
            try checkResults(resultsPath, layout: layout, inputs: collection.inputs,
                             read: (listFile.map { [$0] } ?? []) + template.readFiles.map(\.path),
                             index: writesReports ? (outFolder as NSString).appendingPathComponent("index.html") : nil)
        }
        let resultsFile = try resultsPath.map { try ResultsWriter(path: $0) }
        defer { resultsFile?.close() }
        // The first results line that cannot be written (a full disk) stops the batch.
        let resultsError = Mutex<Error?>(nil)

        let runner = BatchRunner(inputs: inputs, layout: layout, template: template, force: arguments.isSet(Self.force))
        let interrupt = Console.onInterrupt(
            message: "interrupt: starting no new file, finishing the files in progress (press Ctrl-C again to abort)"
        ) { runner.requestStop() }
        defer { interrupt.cancel() }
        let progress = BatchProgress(total: inputs.count)
        let showsProgress = !quiet && isatty(2) != 0
        let showsStats = arguments.isSet(CommonFlags.stats)
        let progressLine = showsProgress ? BatchProgressLine(progress) : nil
        let started = Date()
        let records = runner.run(jobs: jobCount) { index, record in
            progress.add(record)
            do {
                try resultsFile?.append(record)
            } catch {
                if resultsError.withLock({ current in defer { if current == nil { current = error } }; return current == nil }) {
                    runner.requestStop()
                }
            }
            if showsStats, record.status == .done, let stats = record.stats {
                if showsProgress { BatchProgressLine.clear() }
                Console.info("\(inputs[index].relativePath): " + stats.table(frames: record.frames, seconds: record.seconds))
            }
            if record.status == .failed, let error = record.error {
                if showsProgress { BatchProgressLine.clear() }
                // Most errors already name the file.
                Console.warn("failed: " + (error.hasPrefix(record.path) ? error : "\(inputs[index].relativePath): \(error)"))
            }
        }
        progressLine?.stop()
        let wall = Date().timeIntervalSince(started)
        if writesReports {
            // The index lists the inputs finished in this run; each links its page where one exists.
            let finished = zip(inputs, records).compactMap { input, record in record.map { (input, $0) } }
            let index = (outFolder as NSString).appendingPathComponent("index.html")
            try BatchIndex.write(records: finished.map(\.1), reports: finished.map { layout.path(.report, for: $0.0) }, to: index,
                                 source: arguments.value(Self.results) ?? outPath)
            if !quiet { Console.info("wrote \(index)") }
        }

        if !quiet { Console.info(summary(records, inputs: inputs, stopped: runner.stopped, wall: wall)) }
        if let error = resultsError.withLock({ $0 }) { throw error }
        if runner.stopped { return Console.interruptStatus }
        return records.contains { $0?.status == .failed } ? 1 : 0
    }

    /// Refuses a layout that would write an output over one of the inputs (an input given inside
    /// the output folder).
    static func checkPlannedOutputs(layout: OutputLayout, inputs: [BatchInput]) throws {
        let sources = Set(inputs.map(\.path))
        for input in inputs {
            if let clash = layout.paths(for: input).first(where: { sources.contains($0) }) {
                throw UsageError("\(clash): batch would write \(input.relativePath)'s output over this input; choose another --out")
            }
        }
    }

    /// Refuses a --results file that is one of the inputs (a video, the --list file, a --known
    /// photo) or one of the outputs the batch plans (over every input, not only this shard's).
    static func checkResults(_ path: String, layout: OutputLayout, inputs: [BatchInput], read: [String], index: String?) throws {
        if let input = inputs.first(where: { AtomicOutput.sameFile($0.path, path) }) {
            throw UsageError("--results \(path) names the input \(input.relativePath); choose another results file")
        }
        if let file = read.first(where: { AtomicOutput.sameFile($0, path) }) {
            throw UsageError("--results \(path) names \(file), an input; choose another results file")
        }
        // Only outputs with the same file name can be the same file: compare those by path.
        let name = (AtomicOutput.canonical(path) as NSString).lastPathComponent
        for input in inputs {
            for (kind, output) in zip(layout.kinds, layout.paths(for: input))
            where (output as NSString).lastPathComponent == name && AtomicOutput.sameFile(output, path) {
                throw UsageError("--results \(path) is where batch writes the \(kind.rawValue) output of \(input.relativePath); "
                                 + "choose another results file")
            }
        }
        if let index, AtomicOutput.sameFile(index, path) {
            throw UsageError("--results \(path) is where batch writes its index.html; choose another results file")
        }
    }

    private static func usage<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as BatchError { throw UsageError(error.description) }
    }

    /// The closing table: one row per file (the first 50), then the totals.
    static func summary(_ records: [ResultRecord?], inputs: [BatchInput], stopped: Bool, wall: Double) -> String {
        var rows = ["status   frames   faces  tracks  seconds  input"]
        let finished = zip(inputs, records).compactMap { input, record in record.map { (input, $0) } }
        for (input, record) in finished.prefix(50) {
            let status = record.status.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            rows.append(status + String(format: " %7d %7d %7d %8.2f  ", record.frames, record.faces, record.tracks, record.seconds)
                        + input.relativePath)
        }
        if finished.count > 50 { rows.append("... \(finished.count - 50) more (see --results)") }
        let report = ResultsReport(records: finished.map(\.1))
        var total = "\(inputs.count) files: \(report.done) done, \(report.skipped) skipped, \(report.failed) failed"
        if stopped { total += ", \(inputs.count - finished.count) not started (interrupted)" }
        total += String(format: "; %d frames in %.1f s (%.1f fps)", report.frames, wall, wall > 0 ? Double(report.frames) / wall : 0)
        return "batch summary\n" + rows.joined(separator: "\n") + "\n" + total
    }
}

/// Redraws batch's progress line twice a second on standard error.
final class BatchProgressLine {
    private let timer: DispatchSourceTimer

    init(_ progress: BatchProgress) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { Console.standardError("\r\u{1B}[K" + progress.line()) }
        timer.resume()
        self.timer = timer
    }

    /// Clears the line (before another message).
    static func clear() { Console.standardError("\r\u{1B}[K") }

    /// Stops redrawing and clears the line.
    func stop() {
        timer.cancel()
        Self.clear()
    }
}
