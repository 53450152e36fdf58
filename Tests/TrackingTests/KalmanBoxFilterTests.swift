import XCTest
import FaceCore
@testable import Tracking

final class KalmanBoxFilterTests: XCTestCase {
    func testMeasurementRoundTrip() throws {
        let box = Rect(x: 10, y: 20, width: 40, height: 50)
        let back = try XCTUnwrap(BoxMeasurement(box).rect)
        XCTAssertEqual(back.x, 10, accuracy: 1e-9)
        XCTAssertEqual(back.y, 20, accuracy: 1e-9)
        XCTAssertEqual(back.width, 40, accuracy: 1e-9)
        XCTAssertEqual(back.height, 50, accuracy: 1e-9)
        XCTAssertNil(BoxMeasurement(centerX: 0, centerY: 0, area: -1, aspect: 1).rect)
    }

    func testLearnsConstantVelocityAndPredictsAhead() throws {
        var filter = KalmanBoxFilter(BoxMeasurement(Rect(centerX: 100, centerY: 200, width: 50, height: 50)))
        for step in 1...30 {
            filter.predict()
            filter.update(BoxMeasurement(Rect(centerX: 100 + 4 * Double(step), centerY: 200 - 2 * Double(step),
                                              width: 50, height: 50)))
        }
        XCTAssertEqual(filter.state[4], 4, accuracy: 0.1)
        XCTAssertEqual(filter.state[5], -2, accuracy: 0.1)
        filter.predict()
        let predicted = try XCTUnwrap(filter.measurement.rect)
        XCTAssertEqual(predicted.center.x, 100 + 4 * 31, accuracy: 0.5)
        XCTAssertEqual(predicted.center.y, 200 - 2 * 31, accuracy: 0.5)
        XCTAssertEqual(predicted.width, 50, accuracy: 0.5)
    }

    func testPredictGrowsAndUpdateShrinksUncertainty() {
        var filter = KalmanBoxFilter(BoxMeasurement(Rect(x: 0, y: 0, width: 30, height: 30)))
        let before = filter.covariance[0]
        filter.predict()
        let predicted = filter.covariance[0]
        XCTAssertGreaterThan(predicted, before)
        filter.update(BoxMeasurement(Rect(x: 1, y: 0, width: 30, height: 30)))
        XCTAssertLessThan(filter.covariance[0], predicted)
        // The covariance stays symmetric.
        for i in 0..<7 { for j in 0..<7 { XCTAssertEqual(filter.covariance[i * 7 + j], filter.covariance[j * 7 + i]) } }
    }

    func testShrinkingAreaNeverGoesNegative() {
        var filter = KalmanBoxFilter(BoxMeasurement(Rect(centerX: 0, centerY: 0, width: 40, height: 40)))
        for size in stride(from: 40.0, through: 4, by: -4) {
            filter.predict()
            filter.update(BoxMeasurement(Rect(centerX: 0, centerY: 0, width: size, height: size)))
        }
        for _ in 0..<100 {
            filter.predict()
            XCTAssertGreaterThan(filter.state[2], 0)
        }
    }

    func testNonFiniteMeasurementRestartsInsteadOfPoisoning() {
        var filter = KalmanBoxFilter(BoxMeasurement(Rect(x: 0, y: 0, width: 30, height: 30)))
        filter.predict()
        filter.update(BoxMeasurement(centerX: .nan, centerY: 0, area: 900, aspect: 1))
        filter.predict()
        filter.update(BoxMeasurement(Rect(x: 5, y: 5, width: 30, height: 30)))
        XCTAssertTrue(filter.state.allSatisfy(\.isFinite))
        XCTAssertTrue(filter.covariance.allSatisfy(\.isFinite))
    }
}
