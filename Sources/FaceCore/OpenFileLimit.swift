import Foundation

/// The open-file limit (`ulimit -n`) a run starts under. libdispatch opens its own descriptors
/// (epoll, eventfd) when the tool starts its event loop and traps when it cannot, so a limit that
/// leaves fewer than `smallestFree` descriptors is refused up front, in one line.
package enum OpenFileLimit {
    /// Two for the event loop, then an input, an output, a model file and room for the muxer.
    package static let smallestFree = 8

    /// A one-line refusal when fewer than `smallestFree` descriptors are free under the limit.
    package static func check() -> String? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
              let open = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        let soft = Int(clamping: limit.rlim_cur)
        // The listing's own descriptor is counted too: it is closed again, so one more is free.
        let used = open.compactMap(Int.init).filter { $0 < soft }.count - 1
        let free = soft - used
        guard free < smallestFree else { return nil }
        return "too many open files: the open-file limit (ulimit -n) is \(soft) with \(used) already open; "
            + "a run needs \(smallestFree) free: raise it"
    }
}
