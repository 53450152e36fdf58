#if canImport(Glibc)
import Glibc
#endif

/// The CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`): what `--stats` adds up per
/// stage and what the benchmarks take medians of, since time spent waiting, or taken by other
/// processes on a shared machine, does not count.
package enum CPUClock {
    /// CPU seconds of the calling thread so far.
    package static func threadSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}
