import Detection
import FaceCore
import FaceTrack
import Foundation

// glibc's allocator keeps frame-size blocks in its heaps for reuse instead of mapping them apart
// and giving them back (system time: MemoryPolicy). First, before anything big is allocated.
MemoryPolicy.apply()

/// The `facetrack` command: runs a command of `Tool.commands` and maps errors to exit statuses
/// (0 success, 1 failure, 2 usage error, 130 interrupted, 143 terminated).
FFmpegLog.configureFromEnvironment()
StandardError.reserveForFaceTrack()
if let refusal = OpenFileLimit.check() {
    Console.standardError("facetrack: error: \(refusal)\n")
    exit(2)
}
StandardError.startEventLoop()
// Memory that cannot be had: one line, no temporary file left, exit 1 (not a trap and a backtrace).
OutOfMemory.install { message in
    // One line however many threads fail: a later one waits for the first one's exit.
    guard CrashCleanup.claimTheEnd() else { while true { pause() } }
    Console.standardError("facetrack: error: \(message)\n")
    AtomicOutput.discardAll()
    JobOutputs.removeWrittenByRunningJobs()
    _exit(1)
}
OutOfMemory.coverNetworks()
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    status = try Tool.run(arguments)
} catch let error as UsageError {
    Console.error(error)
    Console.standardError("facetrack: see 'facetrack \(arguments.first.map { $0.hasPrefix("-") ? "" : $0 + " " } ?? "")--help'\n")
    status = 2
} catch let error as InputRefused {
    Console.error(error)
    status = 2
} catch {
    // A thread that ran out of memory meanwhile is printing the run's one line and ending it.
    guard CrashCleanup.claimTheEnd() else { while true { pause() } }
    Console.error(error)
    status = 1
}
// Whatever still holds an output open, a failed or interrupted run leaves no temporary file.
if status != 0 { AtomicOutput.discardAll() }
exit(status)
