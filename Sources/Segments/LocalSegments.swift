import Foundation
import Synchronization

/// Runs the segments of a plan as local processes at once (`facetrack process INPUT --jobs N`):
/// each is `EXECUTABLE ARGUMENTS... --segment K --plan PLAN`, its standard error kept in a log
/// beside the plan. A segment already done (its record in place, same settings) returns at once,
/// so running the same command again after a failure or a kill redoes only the rest.
package final class LocalSegments: Sendable {
    /// How one segment's process ended.
    package struct Outcome: Sendable {
        /// The segment's number.
        package var segment: Int
        /// Its exit status (a signal's number plus 128 when killed).
        package var status: Int32
        /// Wall seconds.
        package var seconds: Double
        /// The last line it wrote on standard error (its error, when it failed).
        package var lastLine: String?
        /// Its log file.
        package var log: String
    }

    private let executable: String
    private let arguments: [String]
    private let files: SegmentFiles
    private let running = Mutex<[Int: Process]>([:])
    private let stopped = Atomic<Bool>(false)

    /// `arguments`: the `process` command line of the whole run without `--jobs` (input, options,
    /// outputs); each segment adds its `--segment K --plan PLAN`.
    package init(executable: String, arguments: [String], files: SegmentFiles) {
        self.executable = executable
        self.arguments = arguments
        self.files = files
    }

    /// The log file of segment `k`.
    package func log(_ k: Int) -> String {
        (files.record(k) as NSString).deletingPathExtension + ".log"
    }

    /// Starts every segment in `segments` at once and waits for all; `finished` is called as each
    /// one ends (from a background thread).
    package func run(_ segments: [Int], finished: @escaping @Sendable (Outcome) -> Void = { _ in }) throws -> [Outcome] {
        let outcomes = Mutex<[Outcome]>([])
        let group = DispatchGroup()
        for k in segments {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments + ["--segment", String(k), "--plan", files.plan]
            let logPath = log(k)
            FileManager.default.createFile(atPath: logPath, contents: nil)
            let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
            process.standardError = log
            process.standardOutput = log
            process.standardInput = FileHandle.nullDevice
            let started = Date()
            group.enter()
            process.terminationHandler = { [self] process in
                try? log.close()
                self.running.withLock { _ = $0.removeValue(forKey: k) }
                let signalled = process.terminationReason == .uncaughtSignal
                let status = signalled ? 128 + process.terminationStatus : process.terminationStatus
                let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                let outcome = Outcome(segment: k, status: status, seconds: Date().timeIntervalSince(started),
                                      lastLine: text.split(separator: "\n").last.map(String.init), log: logPath)
                outcomes.withLock { $0.append(outcome) }
                finished(outcome)
                group.leave()
            }
            if stopped.load(ordering: .relaxed) {
                group.leave()
                continue
            }
            try process.run()
            running.withLock { $0[k] = process }
        }
        group.wait()
        return outcomes.withLock { $0 }.sorted { $0.segment < $1.segment }
    }

    /// Asks every running segment to stop (SIGTERM: each finishes the frames in flight and writes
    /// no record) and starts no more.
    package func stop() {
        stopped.store(true, ordering: .relaxed)
        for process in running.withLock({ Array($0.values) }) where process.isRunning {
            kill(process.processIdentifier, SIGTERM)
        }
    }
}
