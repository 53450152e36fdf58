import Foundation

/// Shows progress on one rewritten line of standard error: frames, percent, fps, ETA.
/// Prints nothing when standard error is not a terminal (logs and CI stay clean).
public final class ProgressReporter: @unchecked Sendable {
    private let total: Int?
    private let enabled: Bool
    private let start = Date()
    private var timer: DispatchSourceTimer?
    private let frames: () -> Int

    /// Creates a reporter reading the finished-frame count from `frames`; `total` may be unknown.
    public init(total: Int?, enabled: Bool = isatty(2) != 0, frames: @escaping @Sendable () -> Int) {
        self.total = total
        self.enabled = enabled
        self.frames = frames
    }

    /// Starts redrawing the line a few times a second.
    public func start(interval: Double = 0.25) {
        guard enabled else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        self.timer = timer
    }

    /// Stops and clears the line.
    public func stop() {
        timer?.cancel()
        timer = nil
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// The text of the line for `done` frames after `elapsed` seconds.
    public static func line(done: Int, total: Int?, elapsed: Double) -> String {
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        var text = "frame \(done)"
        if let total, total > 0 {
            let percent = min(100, 100 * Double(done) / Double(total))
            text += "/\(total) (\(Int(percent))%)"
            if fps > 0 && done < total { text += String(format: ", ETA %.0f s", Double(total - done) / fps) }
        }
        return text + String(format: ", %.1f fps", fps)
    }

    private func draw() {
        let text = Self.line(done: frames(), total: total, elapsed: Date().timeIntervalSince(start))
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }
}
