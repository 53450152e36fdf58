import Dispatch
import Synchronization
import Tracking

/// Hands the tracker's forecasts from the tracking stage to the reader, which plans frame `n` from
/// the tracks as they stood after frame `n - lag`: fixed, so plans (and outputs) do not depend on
/// thread timing. The reader waits when the tracking stage has not got that far yet.
final class ForecastBoard: Sendable {
    /// Frames between the tracked frame and the frame planned from it.
    let lag: Int
    private let posted = Mutex<[Int: [TrackForecast]]>([:])
    private let arrived = DispatchSemaphore(value: 0)

    init(lag: Int) {
        self.lag = max(1, lag)
    }

    /// Posts the forecasts made after tracking frame `frame`, for frame `frame + lag`.
    func post(after frame: Int, _ forecasts: [TrackForecast]) {
        posted.withLock { $0[frame + lag] = forecasts }
        arrived.signal()
    }

    /// The forecasts for frame `frame`: none for the first `lag` frames; otherwise waits for
    /// them, or returns `nil` when `gaveUp()` (the run failed) before they came.
    func forecasts(for frame: Int, gaveUp: () -> Bool) -> [TrackForecast]? {
        guard frame >= lag else { return [] }
        while true {
            if let found = posted.withLock({ $0.removeValue(forKey: frame) }) { return found }
            if gaveUp() { return nil }
            _ = arrived.wait(timeout: .now() + .milliseconds(50))
        }
    }
}
