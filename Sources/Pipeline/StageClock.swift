import FaceCore
import Foundation
import Synchronization

/// The parts of a run that `--stats` accounts CPU time to, in pipeline order.
enum RunStage: Int, CaseIterable {
    case decode, convert, detect, attributes, track, render, encode, mux

    var name: String {
        switch self {
        case .decode: return "demux+decode"
        case .convert: return "convert"
        case .detect: return "detect"
        case .attributes: return "attributes"
        case .track: return "track+write"
        case .render: return "render"
        case .encode: return "encode"
        case .mux: return "mux"
        }
    }
}

/// Adds up the CPU time each stage spends, read from the clock of the thread doing the work
/// (CLOCK_THREAD_CPUTIME_ID), so time spent waiting for other stages is not counted and lanes
/// running at once add up. FFmpeg's own codec threads are not seen here: `RunStatistics` shows
/// them as the rest of the process's CPU time.
final class StageClock: Sendable {
    private let totals = Mutex([Double](repeating: 0, count: RunStage.allCases.count))
    /// The detector's share of `detect`, by pass kind (whole-frame, crops, tiles).
    private let passTotals = Mutex([Double](repeating: 0, count: RunStatistics.PassKind.allCases.count))

    /// Runs `work`, adding its CPU time on this thread to `stage`.
    func time<T>(_ stage: RunStage, _ work: () throws -> T) rethrows -> T {
        let start = CPUClock.threadSeconds()
        defer { add(stage, CPUClock.threadSeconds() - start) }
        return try work()
    }

    /// Runs a detector call, adding its CPU time to its kind of pass. Called inside `detect`'s
    /// timing: the kinds break detect down, they do not add to it.
    func timePass<T>(_ kind: RunStatistics.PassKind, _ work: () throws -> T) rethrows -> T {
        let start = CPUClock.threadSeconds()
        defer {
            let seconds = CPUClock.threadSeconds() - start
            passTotals.withLock { $0[kind.rawValue] += seconds }
        }
        return try work()
    }

    func add(_ stage: RunStage, _ seconds: Double) {
        totals.withLock { $0[stage.rawValue] += seconds }
    }

    var seconds: [Double] { totals.withLock { $0 } }

    /// The stages' CPU time, the rest of the process's as codec threads, peak memory, and the
    /// detector passes by kind (`counts`: how many of each ran).
    func statistics(since before: ProcessUsage, counts: DetectionPassCounts) -> RunStatistics {
        let after = ProcessUsage.now()
        let seconds = self.seconds
        var stages = RunStage.allCases.map { RunStatistics.Stage(name: $0.name, cpuSeconds: seconds[$0.rawValue]) }
        let cpu = after.cpuSeconds - before.cpuSeconds
        stages.append(RunStatistics.Stage(name: "codec threads", cpuSeconds: max(0, cpu - seconds.reduce(0, +))))
        var statistics = RunStatistics(stages: stages, cpuSeconds: cpu, peakMemoryBytes: after.peakMemoryBytes)
        let passSeconds = passTotals.withLock { $0 }
        statistics.passes = RunStatistics.PassKind.allCases.map {
            RunStatistics.Passes(kind: $0.name, count: counts.count(of: $0), cpuSeconds: passSeconds[$0.rawValue])
        }
        return statistics
    }
}

/// CPU seconds (user + system) and peak resident memory of the whole process so far.
struct ProcessUsage {
    var cpuSeconds: Double
    var peakMemoryBytes: Int

    static func now() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
        return ProcessUsage(cpuSeconds: cpu, peakMemoryBytes: usage.ru_maxrss * 1024)  // ru_maxrss is in KiB on Linux
    }
}
