import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator settings for a video run, set once when `facetrack` starts.
///
/// Why: glibc gives blocks above its mmap threshold (128 KiB at start, rising with the blocks
/// freed to at most 32 MiB) their own mapping, and free memory at a heap's top above the trim
/// threshold (twice the mmap threshold) back to the kernel. Higher thresholds keep frame- and
/// x264-frame-size blocks in the heaps for reuse. When fresh pages are dear on this host (pages
/// cleared for the run, `clear_page_erms`) that cut the default run's system time from 1.3-1.8 s
/// to 0.4-0.5 s; when they are cheap it is neutral (docs/performance.md, "glibc's thresholds, set
/// at start"; the networks' big buffers are mapped apart, `FloatStorage`).
///
/// `mallopt` overrides what glibc read from `GLIBC_TUNABLES` or its `MALLOC_*_` variables at
/// start, so a threshold the user set there is left alone.
package enum MemoryPolicy {
    /// One `mallopt` setting.
    package struct Setting: Equatable, Sendable {
        /// What it is called in messages and docs ("mmap threshold").
        package var name: String
        /// `mallopt`'s parameter number (`M_MMAP_THRESHOLD` is -3 in `<malloc.h>`).
        package var parameter: Int32
        /// The value set, in bytes.
        package var bytes: Int32
        /// glibc's tunable for it (`GLIBC_TUNABLES=glibc.malloc.mmap_threshold=...`).
        package var tunable: String
        /// glibc's older environment variable for it (`MALLOC_MMAP_THRESHOLD_`).
        package var environmentVariable: String
    }

    /// Blocks below 64 MiB (decoded and x264 frames, pictures, models as read) come from the heaps,
    /// and up to 256 MiB free at a heap's top stays there (docs/performance.md).
    package static let all: [Setting] = [
        Setting(name: "mmap threshold", parameter: -3, bytes: 64 << 20, tunable: "glibc.malloc.mmap_threshold",
                environmentVariable: "MALLOC_MMAP_THRESHOLD_"),
        Setting(name: "trim threshold", parameter: -1, bytes: 256 << 20, tunable: "glibc.malloc.trim_threshold",
                environmentVariable: "MALLOC_TRIM_THRESHOLD_"),
    ]

    /// The settings to make under `environment`: all but those the user set through
    /// `GLIBC_TUNABLES` or glibc's `MALLOC_*_` variables.
    package static func settings(environment: [String: String]) -> [Setting] {
        let tunables = Set((environment["GLIBC_TUNABLES"] ?? "").split(separator: ":").compactMap { pair in
            pair.split(separator: "=", maxSplits: 1).first.map(String.init)
        })
        return all.filter { setting in
            !tunables.contains(setting.tunable) && (environment[setting.environmentVariable] ?? "").isEmpty
        }
    }

    /// Makes the settings with glibc's `mallopt` and returns those glibc took; none where the C
    /// library is not glibc. Call once at start, before the run allocates its big blocks.
    @discardableResult
    package static func apply(environment: [String: String] = ProcessInfo.processInfo.environment) -> [Setting] {
        #if canImport(Glibc)
        guard let mallopt = glibcFunction("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self) else { return [] }
        return settings(environment: environment).filter { mallopt($0.parameter, $0.bytes) == 1 }
        #else
        return []
        #endif
    }

    /// Gives the heaps' free pages back to the kernel (glibc's `malloc_trim(0)`): once, when a run's
    /// models are loaded and their transient copies freed, which the trim threshold above would
    /// otherwise keep resident for the whole run. Nothing where the C library is not glibc.
    package static func releaseFreedMemory() {
        #if canImport(Glibc)
        _ = glibcFunction("malloc_trim", as: (@convention(c) (Int) -> Int32).self)?(0)
        #endif
    }

    #if canImport(Glibc)
    /// glibc's function `name`, looked up rather than imported: Swift's Glibc module does not
    /// include <malloc.h>. Nil when the C library has no such function.
    private static func glibcFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }
    #endif
}
