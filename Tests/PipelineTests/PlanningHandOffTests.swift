import Dispatch
import FaceCore
import Foundation
@testable import Pipeline
import Synchronization
import Tracking
import XCTest

/// The hand-off between the tracking stage and the planners, and the lanes' order of work: the
/// parts that keep adaptive runs deterministic while keyframes start early.
final class PlanningHandOffTests: XCTestCase {
    func testCropsFollowTheFreshestTracksKeyframesOlderOnes() {
        let board = ForecastBoard(lanes: 2, reach: 8)
        // Mid-shot: crops from two frames back, keyframes and tiles from eight.
        XCTAssertEqual(board.freshSource(for: 100, lastCut: 0), 98)
        XCTAssertEqual(board.aheadSource(for: 100, lastCut: 0), 92)
        // Just after a cut at 95: nothing of the new shot before 97; then the cut frame itself.
        XCTAssertNil(board.freshSource(for: 96, lastCut: 95))
        XCTAssertNil(board.aheadSource(for: 96, lastCut: 95))
        XCTAssertEqual(board.aheadSource(for: 97, lastCut: 95), 95)
        XCTAssertEqual(board.aheadSource(for: 102, lastCut: 95), 95)
        XCTAssertEqual(board.aheadSource(for: 103, lastCut: 95), 95)
        XCTAssertEqual(board.aheadSource(for: 104, lastCut: 95), 96, "sources never move back")
    }

    func testForecastsAreMovedOnByTheFramesBetween() {
        let board = ForecastBoard(lanes: 2, reach: 8)
        board.post(after: 10) { steps in
            [TrackForecast(serial: 1, id: 1, box: Rect(x: Double(steps) * 5, y: 0, width: 40, height: 40), missedRuns: 0)]
        }
        XCTAssertEqual(board.forecasts(for: 12, from: 10, gaveUp: { false })?.first?.box.x, 10)
        XCTAssertEqual(board.forecasts(for: 18, from: 10, gaveUp: { false })?.first?.box.x, 40)
        XCTAssertNil(board.forecasts(for: 13, from: 11, gaveUp: { true }), "a failed run stops the wait")
    }

    /// The crop planner and the reader wait at once for different sources: a post wakes both, so
    /// neither takes the other's wake-up and sleeps until its failure check.
    func testEveryWaitingPlannerWakesOnAPost() {
        let board = ForecastBoard(lanes: 2, reach: 8, failureCheck: .seconds(30))
        let returned = Mutex<[Int]>([])
        let done = DispatchGroup()
        for source in [10, 11] {
            done.enter()
            DispatchQueue.global().async {
                _ = board.forecasts(for: source + 2, from: source, gaveUp: { false })
                returned.withLock { $0.append(source) }
                done.leave()
            }
        }
        Thread.sleep(forTimeInterval: 0.2)  // both are waiting
        for source in [10, 11] { board.post(after: source) { _ in [] } }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "a waiter slept through a post")
        XCTAssertEqual(Set(returned.withLock { $0 }), [10, 11])
    }

    func testFreeLanesTakeTheEarliestFramesWorkFirst() {
        let pool = LanePool([0], label: "test.lane")
        let started = Mutex<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        done.enter()
        // The only lane is busy; work for frames 7, 3 and 5 queues up behind it.
        pool.submit(item: 0) { _ in gate.wait(); done.leave() }
        for frame in [7, 3, 5] {
            done.enter()
            pool.submit(item: frame) { _ in started.withLock { $0.append(frame) }; done.leave() }
        }
        gate.signal()
        done.wait()
        XCTAssertEqual(started.withLock { $0 }, [3, 5, 7])
    }
}
