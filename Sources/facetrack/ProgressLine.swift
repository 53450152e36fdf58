import FaceTrack
import Foundation
import Synchronization

/// Shows a job's progress on one rewritten line of standard error, a few times a second: frames,
/// percent, ETA and fps. Prints nothing when standard error is not a terminal (logs and CI stay clean).
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let latest = Mutex<JobProgress?>(nil)

    init(enabled: Bool = true) {
        self.enabled = enabled && isatty(2) != 0
    }

    /// Records the job's progress (called after every frame; drawing happens on a timer).
    @Sendable func update(_ progress: JobProgress) {
        guard enabled else { return }
        latest.withLock { $0 = progress }
    }

    /// Runs `body` while redrawing the line, then clears it.
    func showing<T>(_ body: () throws -> T) rethrows -> T {
        guard enabled else { return try body() }
        let start = Date()
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
        timer.setEventHandler { [self] in
            guard let progress = latest.withLock({ $0 }) else { return }
            let text = Self.line(done: progress.frames, total: progress.estimatedTotal, elapsed: Date().timeIntervalSince(start))
            Console.standardError("\r\u{1B}[K" + text)
        }
        timer.resume()
        defer {
            timer.cancel()
            Console.standardError("\r\u{1B}[K")
        }
        return try body()
    }

    /// The text of the line for `done` frames after `elapsed` seconds.
    static func line(done: Int, total: Int?, elapsed: Double) -> String {
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        var text = "frame \(done)"
        if let total, total > 0 {
            let percent = min(100, 100 * Double(done) / Double(total))
            text += "/\(total) (\(Int(percent))%)"
            if fps > 0 && done < total { text += String(format: ", ETA %.0f s", Double(total - done) / fps) }
        }
        return text + String(format: ", %.1f fps", fps)
    }
}
