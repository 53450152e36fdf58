import Dispatch
import Foundation

/// Messages on standard error, one line each, prefixed with the program name.
enum Console {
    static func info(_ text: String) { write("facetrack: \(text)") }
    static func warn(_ text: String) { write("facetrack: warning: \(text)") }
    static func error(_ error: Error) { write("facetrack: error: \(error)") }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Calls `handler` on the first SIGINT; a second SIGINT ends the program at once.
    static func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue.global())
        source.setEventHandler {
            signal(SIGINT, SIG_DFL)
            Console.warn("interrupt: finishing the frames in flight (press Ctrl-C again to abort)")
            handler()
        }
        source.resume()
        return source
    }
}
