import FaceCore
import Foundation
import Synchronization

extension JobOutputs {
    /// The outputs that are set, with the option that names each.
    var named: [(option: String, path: String)] {
        [("-o", video), ("--csv", csv), ("--mot", mot), ("--tracks-summary", tracksSummary), ("--landmarks", landmarks), ("--report", report),
         ("--json", json)]
            .compactMap { option, path in path.map { (option, $0) } }
    }

    /// Refuses two outputs naming one file, or an output naming the input, compared by resolved
    /// path and by inode (so links and `..` are seen through); called before any frame is read,
    /// so a clash never costs a run nor leaves a broken file. "-" (standard output) is not a file.
    public func checkDistinct(input: String? = nil, readFiles: [ReadFile] = []) throws {
        // Standard output and devices (`/dev/null` twice is fine) are not files to clash over.
        let files = named.filter { output in
            var info = stat()
            return output.path != "-" && !(stat(output.path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        }
        for (index, first) in files.enumerated() {
            if let input, AtomicOutput.sameFile(input, first.path) { throw AtomicOutputError.isInput(first.path) }
            if let read = readFiles.first(where: { AtomicOutput.sameFile($0.path, first.path) }) {
                throw AtomicOutputError.namesReadFile(first.path, role: read.role)
            }
            for second in files[(index + 1)...] where AtomicOutput.sameFile(first.path, second.path) {
                throw AtomicOutputError.sameOutput(second.path, first: first.option, second: second.option)
            }
        }
    }

    /// The outputs of the jobs running now, by run: what an out-of-memory exit removes.
    private static let running = Mutex<[Int: JobOutputs]>([:])
    private static let nextRun = Atomic<Int>(0)

    /// Registers a run's outputs until `finished(run:)`.
    func started() -> Int {
        let run = JobOutputs.nextRun.add(1, ordering: .relaxed).newValue
        JobOutputs.running.withLock { $0[run] = self }
        return run
    }

    /// Ends a run's registration; a run that succeeded keeps what it renamed into place for good.
    func finished(run: Int, succeeded: Bool) {
        _ = JobOutputs.running.withLock { $0.removeValue(forKey: run) }
        if succeeded {
            for output in named where output.path != "-" { _ = AtomicOutput.forgetCommitted(AtomicOutput.followingLinks(output.path)) }
        }
    }

    /// Removes what the jobs still running renamed into place: the tool calls it on its way out
    /// after an allocation failure, so a run that dies leaves no output, as a failed one.
    package static func removeWrittenByRunningJobs() {
        for outputs in running.withLock({ Array($0.values) }) { outputs.removeWritten() }
    }

    /// Deletes the outputs this run already renamed into place (symlinks followed; devices, FIFOs
    /// and files it did not write left alone), after a later output failed.
    package func removeWritten() {
        for output in named where output.path != "-" {
            let target = AtomicOutput.followingLinks(output.path)
            var info = stat()
            if AtomicOutput.forgetCommitted(target), lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG { unlink(target) }
        }
    }
}

/// A file a job reads besides its input (a `--known` photo, the `--eye-sprite` picture, the
/// `--cascade` file): no output may name it.
public struct ReadFile: Sendable, Equatable {
    /// The path as given.
    public var path: String
    /// What it is, for messages: "a --known photo".
    public var role: String

    /// Creates one.
    public init(path: String, role: String) {
        self.path = path
        self.role = role
    }
}
