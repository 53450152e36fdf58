import Foundation
import Synchronization

/// What happens when memory cannot be had: the command-line tool installs a handler that prints
/// one line, removes the temporary outputs and exits with status 1 (no trap, no backtrace, no
/// `.partial` file left). Allocations that can throw do so instead; this is for the ones inside
/// initialisers that cannot (FFmpeg's `av_frame_alloc`, a network's weight buffers).
package enum OutOfMemory {
    private static let handler = Mutex<(@Sendable (String) -> Never)?>(nil)

    /// Sets what `fail` does.
    package static func install(_ newHandler: @escaping @Sendable (String) -> Never) {
        handler.withLock { $0 = newHandler }
    }

    /// Ends the program: memory for `what` could not be had ("a 1920 x 1080 picture (7 MB)").
    package static func fail(_ what: String) -> Never {
        fail(message: "out of memory allocating \(what); free memory or raise the limit (ulimit -v)")
    }

    /// Ends the program with a one-line `message` through the installed handler.
    package static func fail(message: String) -> Never {
        if let handler = handler.withLock({ $0 }) { handler(message) }
        fatalError(message)
    }

    /// Whether `bytes` of address space can be reserved now (reserved and given back at once;
    /// no page is touched). Tells a library's unexplained failure under memory pressure from a fault.
    package static func canReserve(_ bytes: Int) -> Bool {
        guard let block = malloc(bytes) else { return false }
        free(block)
        return true
    }

    /// The smallest address-space limit (`ulimit -v`) a run starts under: below it the threads'
    /// stacks themselves may not fit, and libdispatch waits for them forever instead of failing
    /// (measured on 2 cores: runs under 700 MB hung, from 800 MB they ended with one line). The
    /// threads grow with the cores, so does the floor: 768 MB and 64 MB per core.
    package static var smallestAddressSpace: Int { (768 + 64 * ProcessInfo.processInfo.activeProcessorCount) << 20 }

    /// A one-line refusal when the process's address-space limit is below `smallestAddressSpace`.
    package static func checkAddressSpace() -> String? {
        guard let limit = addressSpaceLimit, limit < smallestAddressSpace else { return nil }
        return "the address-space limit (ulimit -v) is \(limit >> 20) MB; a run needs at least "
            + "\(smallestAddressSpace >> 20) MB here (its threads' stacks alone take hundreds): raise it"
    }

    /// The process's address-space limit in bytes (`ulimit -v`), nil when there is none.
    package static var addressSpaceLimit: Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }
}
