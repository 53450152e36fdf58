import Dispatch
import FaceCore
#if canImport(Glibc)
import Glibc
#endif

/// The clocks every benchmark reads, so they all measure alike: monotonic wall time, and CPU time
/// of the calling thread or of the whole process (which other work on a shared machine does not
/// inflate). Milliseconds throughout.
package enum Timing {
    /// Wall-clock milliseconds from an arbitrary start (monotonic).
    package static func wallMilliseconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    /// CPU milliseconds of the calling thread so far.
    package static func threadMilliseconds() -> Double { CPUClock.threadSeconds() * 1e3 }

    /// CPU milliseconds of the whole process so far, every thread (user + system).
    package static func processMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func milliseconds(_ t: timeval) -> Double { Double(t.tv_sec) * 1e3 + Double(t.tv_usec) / 1e3 }
        return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
    }

    /// Wall and process-CPU milliseconds of one run of `body`.
    package static func measure(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let cpu = processMilliseconds(), wall = wallMilliseconds()
        try body()
        return (wallMilliseconds() - wall, processMilliseconds() - cpu)
    }

    /// The median of `runs` runs of `body`, in milliseconds of this thread's CPU time.
    package static func medianThreadMilliseconds(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<max(1, runs) {
            let start = threadMilliseconds()
            try body()
            times.append(threadMilliseconds() - start)
        }
        return median(times)
    }

    /// The middle value (the upper one of an even count); 0 for no values.
    package static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }
}
