import Dispatch
import Synchronization
import Tracking

/// Hands the tracker's forecasts from the tracking stage to the planners, which plan frame `n`
/// from the tracks as they stood after an earlier frame, its source. Sources depend only on `n`
/// and the shot cuts, never on thread timing, so plans (and outputs) are deterministic.
///
/// - Crops (`freshSource`): `n - lanes`, the freshest forecasts that still let every lane work
///   on a frame of its own.
/// - Keyframes and tiles (`aheadSource`): usually `n - reach`, so that these expensive passes can
///   start on a free lane up to `reach` frames before their frame is tracked; within `reach`
///   frames after a cut, the cut frame itself (its tracks are the only ones of the new shot;
///   waiting for them costs a little at cuts only).
/// - Neither for the first `lanes` frames of a shot (stale): the scheduler looks at the whole frame.
///
/// The forecast for frame `n` is the source's tracks moved on `n - source` frames at their
/// filters' velocity. A planner waits when the tracking stage has not reached the source yet; each
/// post wakes every waiter (two planners may wait at once, for different sources).
final class ForecastBoard: Sendable {
    private struct State {
        /// Forecasts posted after each tracked frame, for 1 ... reach frames ahead.
        var posted: [Int: [[TrackForecast]]] = [:]
        /// One semaphore per waiting planner, signalled by the next post.
        var waiting: [DispatchSemaphore] = []
    }

    /// The runs' distance from a source to the frame whose crops are planned from it: fixed, so
    /// that a run's output does not depend on its thread count. Two lanes (two cores) are kept
    /// busy with crops; more lanes still start keyframes and tiles up to four times as far ahead.
    static let planningLag = 2

    /// The shortest distance from a source to the frame planned from it.
    let lanes: Int
    /// The longest distance: the most frames a forecast reaches ahead.
    let reach: Int
    /// How often a waiting planner looks whether the run failed.
    private let failureCheck: DispatchTimeInterval
    private let state = Mutex(State())

    init(lanes: Int, reach: Int, failureCheck: DispatchTimeInterval = .milliseconds(50)) {
        self.lanes = max(1, lanes)
        self.reach = max(self.lanes, reach)
        self.failureCheck = failureCheck
    }

    /// The frame whose tracks decide frame `frame`'s keyframe and tile, when the last cut (or the
    /// first frame) is `lastCut`; `nil` when no frame of this shot can be waited for yet.
    func aheadSource(for frame: Int, lastCut: Int) -> Int? {
        if frame - reach >= lastCut { return frame - reach }
        return freshSource(for: frame, lastCut: lastCut).map { _ in lastCut }
    }

    /// The frame whose tracks decide frame `frame`'s crops; `nil` when no frame of this shot
    /// can be waited for yet.
    func freshSource(for frame: Int, lastCut: Int) -> Int? {
        frame - lanes >= lastCut ? frame - lanes : nil
    }

    /// Posts the forecasts made after tracking frame `frame`: `forecast(k)` is where the tracks
    /// are expected `k` frames later.
    func post(after frame: Int, _ forecast: (Int) -> [TrackForecast]) {
        let ahead = (1...reach).map(forecast)
        let waiting = state.withLock { state in
            state.posted[frame] = ahead
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for waiter in waiting { waiter.signal() }
    }

    /// The forecasts for frame `frame` made after tracking `source`: waits for them, or returns
    /// `nil` when `gaveUp()` (the run failed) before they came. Forecasts no source can need any
    /// more (both planners' sources only move forward) are dropped.
    func forecasts(for frame: Int, from source: Int, gaveUp: () -> Bool) -> [TrackForecast]? {
        precondition(frame > source && frame - source <= reach, "forecast \(frame - source) frames ahead")
        while true {
            let wake = DispatchSemaphore(value: 0)
            let found = state.withLock { state -> [TrackForecast]? in
                guard let ahead = state.posted[source] else {
                    state.waiting.append(wake)
                    return nil
                }
                if state.posted.count > 4 * reach { state.posted = state.posted.filter { $0.key >= source - 2 * reach } }
                return ahead[frame - source - 1]
            }
            if let found { return found }
            if gaveUp() { return nil }
            _ = wake.wait(timeout: .now() + failureCheck)
        }
    }
}
