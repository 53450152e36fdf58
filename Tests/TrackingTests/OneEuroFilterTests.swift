import XCTest
@testable import Tracking

final class OneEuroFilterTests: XCTestCase {
    private func standardDeviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    func testReducesJitterOnAStillNoisySignal() {
        var random = SplitMix(seed: 3)
        // A still face 100 px tall at x = 500 with ±3 px detector jitter, 30 fps; tracker defaults.
        var filter = OneEuroFilter(minCutoff: 1, beta: 4, derivativeCutoff: 1)
        var raw: [Double] = [], smoothed: [Double] = []
        for _ in 0..<300 {
            let value = 500 + random.noise(3)
            raw.append(value)
            smoothed.append(filter.filter(value, interval: 1.0 / 30, speedScale: 100))
        }
        let rawJitter = standardDeviation(Array(raw.dropFirst(30)))
        let smoothJitter = standardDeviation(Array(smoothed.dropFirst(30)))
        XCTAssertLessThan(smoothJitter, 0.45 * rawJitter, "raw \(rawJitter), smoothed \(smoothJitter)")
    }

    func testFollowsFastLinearMotionWithSmallLag() {
        // 3 face heights a second (300 px/s for a 100 px face), 10 px a frame.
        var filter = OneEuroFilter(minCutoff: 1, beta: 4, derivativeCutoff: 1)
        var lag = 0.0
        for i in 0..<90 {
            let value = 10 * Double(i)
            lag = value - filter.filter(value, interval: 1.0 / 30, speedScale: 100)
        }
        // A plain 1 Hz low-pass would lag by about 48 px here; allow half a frame of motion.
        XCTAssertGreaterThanOrEqual(lag, 0)
        XCTAssertLessThan(lag, 5, "lag \(lag) px")
    }

    func testFirstValuePassesAndBadIntervalsAreHarmless() {
        var filter = OneEuroFilter(minCutoff: 1, beta: 1, derivativeCutoff: 1)
        XCTAssertEqual(filter.filter(42, interval: 0.03), 42)
        let a = filter.filter(50, interval: 0)
        XCTAssertEqual(a, 42, "a zero interval keeps the previous output")
        XCTAssertEqual(filter.filter(50, interval: -1), 42)
        XCTAssertEqual(filter.filter(50, interval: .nan), 42)
        let b = filter.filter(50, interval: 1000)
        XCTAssertEqual(b, 50, accuracy: 0.01, "a long gap follows the new value")
        XCTAssertTrue(filter.filter(.infinity, interval: 0.03).isInfinite)
        XCTAssertFalse(filter.hasValue)
        XCTAssertEqual(filter.filter(7, interval: 0.03), 7)
    }
}
