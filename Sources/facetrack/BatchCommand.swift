import Batch
import FaceTrack
import Foundation

/// `facetrack batch INPUT... --out DIR`: `process` over many files, concurrently, resumably,
/// optionally one shard of a job array.
enum BatchCommand {
    static let help = """
    USAGE: facetrack batch INPUT... [--list FILE] --out DIR [options] [process options]

    Runs `process` on many files: INPUTs are files, folders (scanned recursively for video and image
    extensions) or quoted glob patterns; --list adds one path per line. The outputs mirror the input
    tree under DIR: NAME.mp4 (overlaid copy; a still image keeps its extension) and NAME.csv.
    A rerun skips inputs whose outputs exist and are not older than the input. Exit status: 0 when
    every file is done or skipped, 1 when any failed, 2 for a usage error, 130 when interrupted
    (Ctrl-C starts no new file and lets the running ones finish; a second Ctrl-C aborts).

    OPTIONS:
      --out DIR             output folder (created; when inside an input folder it is not scanned)
      --list FILE           also process the paths listed in FILE, one per line (relative to the current folder)
      --outputs LIST        what to write per input: video, csv, mot, tracks (default video,csv)
      --jobs N              files processed at once (default: \(defaultJobs(cores: cores)) here; see docs/batch.md)
      --threads N           worker threads per file (default: cores / jobs, at least 1)
      --force               redo inputs whose outputs are up to date
      --results FILE        write a JSON Lines record per input (path, status, frames, faces, tracks, seconds, error)
      --shard I/N           process only slice I of N of the sorted inputs (I from 0 to N-1), or
                            auto: from SLURM_ARRAY_TASK_ID/_COUNT/_MIN or JOB_COMPLETION_INDEX
      --shard-count N       the N for --shard auto (Kubernetes Indexed Jobs give only the index)
      --extensions LIST     extensions scanned for in folders (default \(InputCollector.defaultExtensions.sorted().joined(separator: ",")))
      --quiet               no progress and no summary table (failures are still reported)
      -h, --help            show this help

    Every `process` option (detector, tracking, overlay and encoder options) is passed to each file;
    see `facetrack process --help`. -o/--csv/--mot/--tracks-summary are chosen by batch (--outputs).

    EXAMPLES:
      facetrack batch videos/ --out faces/ --results results.jsonl
      facetrack batch 'clips/*.mov' --out out --outputs csv --detector blazeface --jobs 2
      facetrack batch --list files.txt --out /scratch/out --shard auto --results results-$SLURM_ARRAY_TASK_ID.jsonl
    """

    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Files at once by default: one per two cores, at least one (measured: see docs/batch.md).
    static func defaultJobs(cores: Int) -> Int { max(1, cores / 2) }

    private static let ownValued: Set<String> = ["--out", "--list", "--outputs", "--jobs", "--results", "--shard",
                                                 "--shard-count", "--extensions"]
    private static let ownFlags: Set<String> = ["--force", "--quiet", "--help"]
    private static let chosenByBatch: Set<String> = ["--output", "--csv", "--mot", "--tracks-summary"]
    private static let passValued = DetectorOptions.valued.union(TrackingOptions.valued).union(OverlayOptions.valued)
        .union(["--crf", "--preset", "--codec", "--threads"]).subtracting(chosenByBatch)
    private static let passFlags = TrackingOptions.flags

    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try Arguments(raw, valued: ownValued.union(passValued).union(chosenByBatch),
                                      flags: ownFlags.union(passFlags), aliases: ["-h": "--help", "-q": "--quiet", "-o": "--output"])
        if arguments.has("--help") { print(help); return 0 }
        if let chosen = chosenByBatch.sorted().first(where: { arguments.string($0) != nil }) {
            throw UsageError("batch chooses the output names: use --out DIR and --outputs instead of \(chosen)")
        }
        // The process options are checked once here, so a typo is a usage error before any file.
        _ = try DetectorOptions(arguments)
        _ = try TrackingOptions(arguments)
        _ = try OverlayOptions(arguments)

        guard let out = arguments.string("--out") else { throw UsageError("batch needs --out DIR") }
        let kinds = try usage { try OutputKind.parseList(arguments.string("--outputs") ?? "video,csv") }
        let jobs = try arguments.int("--jobs", in: 1...256) ?? defaultJobs(cores: cores)
        let shardCount = try arguments.int("--shard-count", in: 1...1_000_000)
        let shard = try arguments.string("--shard").map { text in
            try usage { try Shard.parse(text, environment: ProcessInfo.processInfo.environment, countOverride: shardCount) }
        }
        if shardCount != nil && arguments.string("--shard") != "auto" { throw UsageError("--shard-count goes with --shard auto") }
        var collector = InputCollector()
        if let list = arguments.string("--extensions") {
            collector.extensions = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ". ")).lowercased() })
        }
        let quiet = arguments.has("--quiet")
        let force = arguments.has("--force")
        guard !arguments.positionals.isEmpty || arguments.string("--list") != nil else {
            throw UsageError("batch needs INPUT files or folders, or --list FILE")
        }

        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw AtomicOutputError.unwritable(out, reason: "cannot create the output folder")
        }
        let outFolder = InputCollector.resolve(out)
        if arguments.positionals.contains(where: { InputCollector.resolve($0) == outFolder }) {
            throw UsageError("the output folder \(out) is an input folder; choose another --out (a subfolder is fine)")
        }
        collector.excluded = [outFolder]
        let collection = try collector.collect(arguments.positionals, listFiles: arguments.string("--list").map { [$0] } ?? [])
        for warning in collection.warnings { Console.warn(warning) }
        if collection.duplicates > 0 && !quiet { Console.info("\(collection.duplicates) repeated inputs taken once") }
        guard !collection.inputs.isEmpty else {
            throw BatchError.noInputs(extensions: collector.extensions.sorted())
        }
        let layout = OutputLayout(folder: outFolder, kinds: kinds, inputs: collection.inputs)
        let inputs = shard?.select(collection.inputs) ?? collection.inputs
        if let shard, !quiet {
            Console.info("shard \(shard): \(inputs.count) of \(collection.inputs.count) inputs")
        }
        let results = try arguments.string("--results").map { try ResultsWriter(path: $0) }
        defer { results?.close() }

        let threads = arguments.string("--threads") == nil ? ["--threads", String(max(1, cores / jobs))] : []
        let passed = passThrough(raw) + threads + ["--quiet"]
        let run = BatchRun(inputs: inputs, layout: layout, force: force, passed: passed, results: results)
        let interrupt = Console.onInterrupt(
            message: "interrupt: starting no new file, finishing the files in progress (press Ctrl-C again to abort)"
        ) { run.requestStop() }
        defer { interrupt.cancel() }
        let started = Date()
        let records = run.execute(jobs: jobs, progress: !quiet && isatty(2) != 0)
        let wall = Date().timeIntervalSince(started)

        if !quiet { Console.info(summary(records, inputs: inputs, stopped: run.stopped, wall: wall)) }
        if run.stopped { return 130 }
        return records.contains { $0?.status == .failed } ? 1 : 0
    }

    /// The process options of the command line, in order, as given.
    private static func passThrough(_ raw: [String]) -> [String] {
        var passed: [String] = []
        var index = 0
        while index < raw.count {
            let argument = raw[index]
            index += 1
            if argument == "--" { break }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if passFlags.contains(name) {
                passed.append(argument)
            } else if passValued.contains(name) {
                passed.append(argument)
                if !argument.contains("="), index < raw.count { passed.append(raw[index]); index += 1 }
            } else if ownValued.contains(name) && !argument.contains("=") {
                index += 1
            }
        }
        return passed
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
        let report = ResultsReport(contents: [("run", finished.map { $0.1.jsonLine() }.joined(separator: "\n"))])
        var total = "\(inputs.count) files: \(report.done) done, \(report.skipped) skipped, \(report.failed) failed"
        if stopped { total += ", \(inputs.count - finished.count) not started (interrupted)" }
        total += String(format: "; %d frames in %.1f s (%.1f fps)", report.frames, wall, wall > 0 ? Double(report.frames) / wall : 0)
        return "batch summary\n" + rows.joined(separator: "\n") + "\n" + total
    }
}

/// One batch in flight: a pool of worker threads taking inputs in order.
///
/// Workers are threads, not Dispatch work items: each blocks in the pipeline until its file is
/// done, and the pipeline's own lanes need the Dispatch pool's threads meanwhile.
final class BatchRun: @unchecked Sendable {
    private let inputs: [BatchInput]
    private let layout: OutputLayout
    private let force: Bool
    private let passed: [String]
    private let results: ResultsWriter?
    private let lock = NSLock()
    private var next = 0
    private var stop = false
    private var records: [ResultRecord?]
    private let progress: BatchProgress
    private var showsProgress = false

    init(inputs: [BatchInput], layout: OutputLayout, force: Bool, passed: [String], results: ResultsWriter?) {
        self.inputs = inputs
        self.layout = layout
        self.force = force
        self.passed = passed
        self.results = results
        records = Array(repeating: nil, count: inputs.count)
        progress = BatchProgress(total: inputs.count)
    }

    /// No new file is started after this.
    func requestStop() { lock.withLock { stop = true } }

    /// True after `requestStop()` (Ctrl-C).
    var stopped: Bool { lock.withLock { stop } }

    /// Runs every input on `jobs` threads; returns the records in input order (nil: not started).
    func execute(jobs: Int, progress showProgress: Bool) -> [ResultRecord?] {
        showsProgress = showProgress
        let reporter = showProgress ? makeReporter() : nil
        let group = DispatchGroup()
        for _ in 0..<min(jobs, max(1, inputs.count)) {
            group.enter()
            let thread = Thread { [self] in
                while let index = take() { finish(index, record: handle(inputs[index])) }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        reporter?.cancel()
        if reporter != nil { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return lock.withLock { records }
    }

    private func take() -> Int? {
        lock.withLock {
            guard !stop, next < inputs.count else { return nil }
            next += 1
            return next - 1
        }
    }

    private func finish(_ index: Int, record: ResultRecord) {
        lock.withLock { records[index] = record }
        progress.add(record)
        results?.append(record)
        if record.status == .failed, let error = record.error {
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            // Most errors already name the file.
            Console.warn("failed: " + (error.hasPrefix(record.path) ? error : "\(inputs[index].relativePath): \(error)"))
        }
    }

    private func makeReporter() -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [progress] in
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + progress.line()).utf8))
        }
        timer.resume()
        return timer
    }

    /// One input: skip, lock, process, unlock.
    private func handle(_ input: BatchInput) -> ResultRecord {
        guard input.exists else { return ResultRecord(path: input.path, status: .failed, error: "\(input.path): no such file") }
        if !force && layout.isUpToDate(input) { return ResultRecord(path: input.path, status: .skipped) }
        let started = Date()
        let outputs = layout.paths(for: input)
        do {
            let folder = (outputs[0] as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let lock = try OutputLock(path: layout.lockPath(for: input))
            defer { lock.release() }
            // Another batch may have finished it while we waited for the lock.
            if !force && layout.isUpToDate(input) { return ResultRecord(path: input.path, status: .skipped) }
            var arguments = [input.path] + passed
            for (kind, path) in zip(layout.kinds, outputs) {
                switch kind {
                case .video: arguments += ["--output", path]
                case .csv: arguments += ["--csv", path]
                case .mot: arguments += ["--mot", path]
                case .tracks: arguments += ["--tracks-summary", path]
                }
            }
            let outcome = try ProcessCommand.execute(arguments, progress: false, interruptible: false)
            let summary = outcome.processing
            return ResultRecord(path: input.path, status: .done, frames: summary.frames, faces: summary.faces,
                                tracks: summary.tracks, seconds: Date().timeIntervalSince(started), error: outcome.readError)
        } catch {
            return ResultRecord(path: input.path, status: .failed, seconds: Date().timeIntervalSince(started), error: "\(error)")
        }
    }
}
