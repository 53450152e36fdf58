import Dispatch
import FaceCore
import Foundation
import Synchronization

/// Messages on standard error, one line each, prefixed with the program name.
enum Console {
    /// Informational text may span lines (tables); each line is escaped on its own.
    static func info(_ text: String) {
        let lines = "facetrack: \(text)".split(separator: "\n", omittingEmptySubsequences: false)
        Console.standardError(lines.map { escapingControls(String($0)) }.joined(separator: "\n") + "\n")
    }
    static func warn(_ text: String) { write("facetrack: warning: \(text)") }
    static func error(_ error: Error) { write("facetrack: error: \(error)") }

    /// Writes to standard error; a failed write (a closed or full stream) is dropped, never a crash.
    static func standardError(_ text: String) {
        StandardError.write(text)
    }

    private static func write(_ line: String) {
        Console.standardError(escapingControls(line) + "\n")
    }

    /// The line with control characters (a newline or escape in a file name) shown as `\n`,
    /// `\u{1B}`..., so one message stays one line and cannot fake another.
    static func escapingControls(_ line: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(line.unicodeScalars.count)
        for scalar in line.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The exit status of a run stopped by a signal: 130 after SIGINT, 143 after SIGTERM (what
    /// `timeout` and Slurm's `scancel` send).
    static var interruptStatus: Int32 { stopSignal.withLock { $0 } == SIGTERM ? 143 : 130 }
    private static let stopSignal = Mutex<Int32>(0)

    /// Calls `handler` on the first SIGINT or SIGTERM, after printing `message`; a second one
    /// removes the temporary files and ends the program at once.
    static func onInterrupt(message: String = "interrupt: finishing the frames in flight (press Ctrl-C again to abort)",
                            _ handler: @escaping @Sendable () -> Void) -> Interrupt {
        Interrupt(sources: [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue.global())
            source.setEventHandler {
                let first = stopSignal.withLock { current in
                    defer { if current == 0 { current = number } }
                    return current == 0
                }
                guard first else {
                    AtomicOutput.discardAll()
                    _exit(interruptStatus)
                }
                Console.warn(number == SIGTERM ? "terminated: " + message.replacingOccurrences(of: "interrupt: ", with: "") : message)
                handler()
            }
            source.resume()
            return source
        })
    }

    /// The signal sources of `onInterrupt`; `cancel()` stops listening.
    struct Interrupt {
        let sources: [DispatchSourceSignal]
        func cancel() { for source in sources { source.cancel() } }
    }
}
