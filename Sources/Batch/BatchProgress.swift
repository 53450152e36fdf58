import Foundation
import Synchronization

/// Counters of a running batch (thread-safe) and the progress line drawn from them.
package final class BatchProgress: Sendable {
    private struct Counts {
        var done = 0, skipped = 0, failed = 0, frames = 0
    }
    private let counts = Mutex(Counts())
    private let total: Int
    private let started = Date()

    /// Progress over `total` inputs.
    package init(total: Int) { self.total = total }

    /// Counts one finished input.
    package func add(_ record: ResultRecord) {
        counts.withLock { counts in
            switch record.status {
            case .done: counts.done += 1
            case .skipped: counts.skipped += 1
            case .failed: counts.failed += 1
            }
            counts.frames += record.frames
        }
    }

    /// The current line.
    package func line() -> String {
        let c = counts.withLock { $0 }
        return BatchProgress.line(total: total, done: c.done, skipped: c.skipped, failed: c.failed, frames: c.frames,
                                  elapsed: Date().timeIntervalSince(started))
    }

    /// "files 5/8 (1 skipped, 1 failed), 300 frames, 95.0 fps, ETA 6 s". The ETA assumes the
    /// inputs still to do take as long as the ones processed so far (skips are not counted).
    package static func line(total: Int, done: Int, skipped: Int, failed: Int, frames: Int, elapsed: Double) -> String {
        let finished = done + skipped + failed
        var text = "files \(finished)/\(total)"
        var notes: [String] = []
        if skipped > 0 { notes.append("\(skipped) skipped") }
        if failed > 0 { notes.append("\(failed) failed") }
        if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
        text += String(format: ", %d frames, %.1f fps", frames, elapsed > 0 ? Double(frames) / elapsed : 0)
        let processed = done + failed
        if processed > 0, finished < total, elapsed > 0 {
            text += String(format: ", ETA %.0f s", elapsed / Double(processed) * Double(total - finished))
        }
        return text
    }
}
