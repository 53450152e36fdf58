import Foundation

/// Counters of a running batch (thread-safe) and the progress line drawn from them.
package final class BatchProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let started = Date()
    private var done = 0, skipped = 0, failed = 0, frames = 0

    /// Progress over `total` inputs.
    package init(total: Int) { self.total = total }

    /// Counts one finished input.
    package func add(_ record: ResultRecord) {
        lock.withLock {
            switch record.status {
            case .done: done += 1
            case .skipped: skipped += 1
            case .failed: failed += 1
            }
            frames += record.frames
        }
    }

    /// The current line.
    package func line() -> String {
        lock.withLock {
            BatchProgress.line(total: total, done: done, skipped: skipped, failed: failed, frames: frames,
                               elapsed: Date().timeIntervalSince(started))
        }
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
