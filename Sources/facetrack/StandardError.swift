import Foundation
import FaceCore

/// Standard error belongs to FaceTrack's one-line messages. FFmpeg's log is off through its level,
/// but libx264 prints a failed malloc straight to descriptor 2 ("x264 [error]: malloc of size ...
/// failed"), a second line under FaceTrack's own. Unless `FACETRACK_FFMPEG_LOG` asks for the
/// libraries' messages, descriptor 2 goes to /dev/null and FaceTrack writes to a copy of the
/// original; a crash still ends with one line there.
enum StandardError {
    /// Where FaceTrack's messages go: descriptor 2, or its copy once `reserveForFaceTrack` ran.
    /// Set once at start-up, before any other thread exists.
    nonisolated(unsafe) private(set) static var descriptor: Int32 = STDERR_FILENO

    /// Moves the libraries' direct writes to /dev/null (when `FACETRACK_FFMPEG_LOG` is unset).
    static func reserveForFaceTrack() {
        guard ProcessInfo.processInfo.environment["FACETRACK_FFMPEG_LOG"] == nil else { return }
        let copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { return }  // descriptor 2 closed: nothing to keep apart
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0, dup2(null, STDERR_FILENO) == STDERR_FILENO else {
            if null >= 0 { close(null) }
            close(copy)
            return
        }
        close(null)
        descriptor = copy
        // Made now: a handler cannot allocate. Under an address-space limit a crash is almost
        // always a Swift allocation that failed (the runtime traps), so it is reported as that.
        CrashCleanup.prepare()
        let limit = OutOfMemory.addressSpaceLimit
        let line = limit.map {
            "facetrack: error: out of memory under the address-space limit (ulimit -v is \($0 >> 20) MB); raise it\n"
        } ?? "facetrack: error: internal error (the program crashed); please report it with the command that caused it "
            + "(FACETRACK_FFMPEG_LOG=error shows the details)\n"
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: line.utf8.count)
        _ = bytes.initialize(from: line.utf8)
        crashLine = UnsafeBufferPointer(bytes)
        exitsOnCrash = limit != nil
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Only async-signal-safe calls: the line, the temporary files, then the end
                // (status 1 when out of memory; otherwise death by the same signal).
                let first = CrashCleanup.claimTheEnd()
                if first { _ = Glibc.write(StandardError.descriptor, crashLine.baseAddress, crashLine.count) }
                CrashCleanup.removeAll()
                if exitsOnCrash || !first { _exit(1) }
                signal(number, SIG_DFL)
                raise(number)
            }
            sigaction(number, &action, nil)
        }
    }

    /// Starts libdispatch's event loop now and waits for it. It opens its descriptors (epoll,
    /// eventfd, timerfd) on first use, on its own thread, and traps when it cannot: started
    /// lazily, a run short of descriptors (`ulimit -n`) crashed after its one-line error instead
    /// of ending with it. Started first, it has them before the run's files are opened.
    static func startEventLoop() {
        let ready = DispatchSemaphore(value: 0)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now())
        timer.setEventHandler { ready.signal() }
        timer.activate()
        _ = ready.wait(timeout: .now() + 10)
        timer.cancel()
    }

    /// Writes `text` to FaceTrack's standard error; a failed write (a closed or full stream) is dropped.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// The crash's line and what follows it, set once at start-up before any other thread exists.
nonisolated(unsafe) private var crashLine = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
nonisolated(unsafe) private var exitsOnCrash = false
