import FaceCore
import XCTest
@testable import Detection

final class RectangleGroupingTests: XCTestCase {
    func testAveragesSimilarRectanglesAndDropsWeakGroups() {
        let rects = [PixelRect(x: 10, y: 10, width: 20, height: 20), PixelRect(x: 11, y: 10, width: 20, height: 20),
                     PixelRect(x: 12, y: 11, width: 21, height: 21), PixelRect(x: 10, y: 12, width: 20, height: 20),
                     PixelRect(x: 100, y: 100, width: 20, height: 20), PixelRect(x: 101, y: 100, width: 20, height: 20)]
        let groups = RectangleGrouping.group(rects, minNeighbors: 2)
        // (10+11+12+10)/4 = 10.75 -> 11, (10+10+11+12)/4 = 10.75 -> 11, 81/4 = 20.25 -> 20.
        XCTAssertEqual(groups, [CascadeDetection(rect: PixelRect(x: 11, y: 11, width: 20, height: 20), neighbors: 4)])
    }

    func testSmallGroupInsideStrongerGroupIsRemoved() {
        let big = Array(repeating: PixelRect(x: 0, y: 0, width: 100, height: 100), count: 8)
        let small = Array(repeating: PixelRect(x: 30, y: 30, width: 30, height: 30), count: 4)
        let groups = RectangleGrouping.group(big + small, minNeighbors: 2)
        XCTAssertEqual(groups.map(\.neighbors), [8])
    }

    func testZeroMinNeighborsKeepsEveryRectangle() {
        let rects = [PixelRect(x: 0, y: 0, width: 5, height: 5), PixelRect(x: 1, y: 0, width: 5, height: 5)]
        XCTAssertEqual(RectangleGrouping.group(rects, minNeighbors: 0).map(\.rect), rects)
    }
}
