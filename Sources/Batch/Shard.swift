/// A deterministic slice of a sorted input list: worker `index` of `count` takes every
/// `count`-th input starting at `index` (round-robin, so long and short files spread evenly
/// over the workers). `index` is 0-based, like Slurm's `--array=0-(N-1)` and Kubernetes'
/// JOB_COMPLETION_INDEX.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// This worker's 0-based index.
    package let index: Int
    /// The number of workers.
    package let count: Int

    /// A shard; nil unless 0 <= index < count.
    package init?(index: Int, count: Int) {
        guard count > 0, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `I/N` (0-based I), or `auto` to read the array index from `environment`.
    /// `countOverride` is `--shard-count`, for Kubernetes Indexed Jobs which give only the index.
    package static func parse(_ text: String, environment: [String: String], countOverride: Int? = nil) throws -> Shard {
        if text == "auto" { return try fromEnvironment(environment, countOverride: countOverride) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              let shard = Shard(index: index, count: count) else { throw BatchError.badShard(text) }
        return shard
    }

    /// The shard of a Slurm array task (SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN, divided
    /// by SLURM_ARRAY_TASK_STEP, of SLURM_ARRAY_TASK_COUNT) or of a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX of `countOverride`).
    package static func fromEnvironment(_ environment: [String: String], countOverride: Int? = nil) throws -> Shard {
        func number(_ key: String) -> Int? { environment[key].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        if let id = number("SLURM_ARRAY_TASK_ID"), let count = countOverride ?? number("SLURM_ARRAY_TASK_COUNT") {
            let minimum = number("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = max(1, number("SLURM_ARRAY_TASK_STEP") ?? 1)
            guard (id - minimum) % step == 0, let shard = Shard(index: (id - minimum) / step, count: count) else {
                throw BatchError.badShard("SLURM_ARRAY_TASK_ID=\(id) (min \(minimum), step \(step), count \(count))")
            }
            return shard
        }
        if let index = number("JOB_COMPLETION_INDEX"), let count = countOverride {
            guard let shard = Shard(index: index, count: count) else {
                throw BatchError.badShard("JOB_COMPLETION_INDEX=\(index) of --shard-count \(count)")
            }
            return shard
        }
        throw BatchError.noShardEnvironment
    }

    /// This worker's part of `items` (which must be in the same order for every worker).
    package func select<T>(_ items: [T]) -> [T] {
        stride(from: index, to: items.count, by: count).map { items[$0] }
    }

    /// `I/N`.
    package var description: String { "\(index)/\(count)" }
}

import Foundation
