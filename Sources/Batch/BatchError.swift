/// Why a batch cannot start or an input cannot be handled. Each description is one line naming the thing.
package enum BatchError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A `--shard` value that is not `I/N` with 0 ≤ I < N.
    case badShard(String)
    /// An `--outputs` list with an unknown or no kind.
    case badOutputs(String)
    /// `--shard auto` found no array index in the environment.
    case noShardEnvironment
    /// Nothing to process: the folders hold no file with a scanned extension, and no file was named.
    case noInputs(extensions: [String])
    /// A list file could not be read.
    case unreadableList(String, reason: String)
    /// Another run holds the lock of an output.
    case locked(String, owner: String)
    /// The lock file could not be created.
    case lockFailed(String, reason: String)
    /// A results file could not be read or written.
    case results(String, reason: String)

    /// One line for the user.
    package var description: String {
        switch self {
        case .badShard(let text):
            return "invalid shard '\(text)': expected I/N with 0 <= I < N (I is 0-based), or auto"
        case .badOutputs(let text):
            return "invalid --outputs '\(text)': choose from " + OutputKind.allCases.map(\.rawValue).joined(separator: ",")
        case .noShardEnvironment:
            return "--shard auto: no SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, nor JOB_COMPLETION_INDEX with --shard-count N, in the environment"
        case .noInputs(let extensions):
            return "no input files found (folders are scanned for \(extensions.joined(separator: ",")))"
        case let .unreadableList(path, reason): return "\(path): cannot read the input list (\(reason))"
        case let .locked(path, owner): return "\(path): locked by \(owner) (another batch is writing it; delete the lock if that run is gone)"
        case let .lockFailed(path, reason): return "\(path): cannot create the lock file (\(reason))"
        case let .results(path, reason): return "\(path): \(reason)"
        }
    }
}
