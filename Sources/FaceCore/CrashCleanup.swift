import Foundation
import Synchronization

/// The temporary files to remove when the process dies of a signal. A Swift allocation that fails
/// under an address-space limit (`ulimit -v`) traps inside the runtime, where no error of ours can
/// be thrown; the tool's signal handler then removes these and ends with one line. The table is
/// fixed C strings made at start-up (`prepare`), read in the handler without locks or allocation
/// (`unlink` is async-signal-safe).
package enum CrashCleanup {
    private static let slots = 64
    private static let length = Int(PATH_MAX)
    /// `slots` C strings of `length` bytes; a slot whose first byte is 0 is free.
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<CChar> = {
        let table = UnsafeMutablePointer<CChar>.allocate(capacity: slots * length)
        table.initialize(repeating: 0, count: slots * length)
        return table
    }()
    /// Which path each used slot holds (writers only; the handler reads `table`).
    private static let used = Mutex<[String: Int]>([:])

    /// Set by the first path to the end (the out-of-memory handler or the signal handler): two
    /// threads failing at once must not print two lines.
    private static let ending = Atomic<Bool>(false)

    /// Makes the table and the flag now, while memory can be had.
    package static func prepare() {
        _ = table
        _ = ending.load(ordering: .relaxed)
    }

    /// True for the first caller only: it prints the run's last line; later ones end silently.
    /// Lock-free, so a signal handler may call it.
    package static func claimTheEnd() -> Bool {
        ending.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    /// Adds `path` (a path longer than a slot, or a 65th, is left to the next run's sweep).
    package static func register(_ path: String) {
        used.withLock { used in
            guard used[path] == nil, path.utf8.count < length,
                  let slot = (0..<slots).first(where: { table[$0 * length] == 0 }) else { return }
            let start = table + slot * length
            path.withCString { source in
                // The first byte last, so the handler never sees half a path in a used slot.
                strcpy(start + 1, source + 1)
                start.pointee = source.pointee
            }
            used[path] = slot
        }
    }

    /// Forgets `path` (renamed into place or removed).
    package static func unregister(_ path: String) {
        used.withLock { used in
            guard let slot = used.removeValue(forKey: path) else { return }
            table[slot * length] = 0
        }
    }

    /// In a signal handler: removes every registered file.
    package static func removeAll() {
        for slot in 0..<slots where table[slot * length] != 0 { unlink(table + slot * length) }
    }
}
