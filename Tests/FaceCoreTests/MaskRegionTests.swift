import FaceCore
import XCTest

/// `MaskRegion`: the head around a face box (wider behind a profile face) and the growth of a
/// mask whose face has not been seen for a while.
final class MaskRegionTests: XCTestCase {
    /// A profile face looking to the image's left: a tall narrow box with the eyes and mouth near its left edge.
    static let profileBox = Rect(x: 100, y: 100, width: 14, height: 30)
    static let profileLandmarks = (leftEye: Point(x: 102, y: 110), rightEye: Point(x: 106, y: 110), mouth: Point(x: 103, y: 123))

    func testProfileHeadReachesBehindTheFace() {
        let l = Self.profileLandmarks
        let head = MaskRegion.head(of: Self.profileBox, leftEye: l.leftEye, rightEye: l.rightEye, mouth: l.mouth)
        XCTAssertGreaterThan(head.width, 0.8 * 30, "at least as wide as a head")
        XCTAssertGreaterThan(head.maxX - 114, 2 * (100 - head.x), "most of the extra width behind the face")
        XCTAssertEqual(head.y, 100)
        XCTAssertEqual(head.height, 30)
        // Mirrored: a face looking right gets its extra width on the left.
        let mirrored = MaskRegion.head(of: Self.profileBox, leftEye: Point(x: 108, y: 110), rightEye: Point(x: 112, y: 110),
                                       mouth: Point(x: 111, y: 123))
        XCTAssertEqual(mirrored.maxX, 114 + (100 - head.x), accuracy: 1e-9)
        XCTAssertEqual(mirrored.width, head.width, accuracy: 1e-9)
    }

    func testFrontalAndLandmarkFreeBoxes() {
        let square = Rect(x: 10, y: 10, width: 40, height: 40)
        XCTAssertEqual(MaskRegion.head(of: square, leftEye: nil, rightEye: nil, mouth: nil), square)
        XCTAssertEqual(MaskRegion.head(of: square, leftEye: Point(x: 22, y: 25), rightEye: Point(x: 38, y: 25),
                                       mouth: Point(x: 30, y: 40)), square, "centred landmarks: a frontal face")
        // A narrow box without landmarks widens evenly to 0.8 of its height.
        let narrow = MaskRegion.head(of: Rect(x: 10, y: 10, width: 20, height: 40), leftEye: nil, rightEye: nil, mouth: nil)
        XCTAssertEqual(narrow.width, 32, accuracy: 1e-9)
        XCTAssertEqual(narrow.center.x, 20, accuracy: 1e-9)
        // Invalid boxes and landmarks change nothing and never crash.
        let bad = Rect(x: .nan, y: 0, width: 10, height: 10)
        XCTAssertTrue(MaskRegion.head(of: bad, leftEye: nil, rightEye: nil, mouth: nil).x.isNaN)
        XCTAssertEqual(MaskRegion.head(of: square, leftEye: Point(x: .infinity, y: 0), rightEye: nil, mouth: nil), square)
    }

    func testForecastRegionGrowsWithFramesUnseenUpToACap() {
        let box = Rect(x: 100, y: 100, width: 20, height: 20)
        XCTAssertEqual(MaskRegion.grown(box, unseenFrames: 0), box)
        let five = MaskRegion.grown(box, unseenFrames: 5)
        XCTAssertEqual(five.width, 20 * (1 + 5 * MaskRegion.growthPerFrame), accuracy: 1e-9)
        XCTAssertEqual(five.center.x, 110, accuracy: 1e-9, "grows about its centre")
        XCTAssertEqual(MaskRegion.grown(box, unseenFrames: 1000).width, 20 * MaskRegion.maximumGrowth, accuracy: 1e-9)
        // A face moving 0.4 of its height per frame: 0.02 + 0.2 * 0.4 = 0.1 per frame.
        XCTAssertEqual(MaskRegion.grown(box, unseenFrames: 5, speed: 0.4).width, 20 * 1.5, accuracy: 1e-9)
        XCTAssertEqual(MaskRegion.grown(box, unseenFrames: 5, speed: .nan), five)
        // A tracked face: its own region when decided, else its drawn copy's.
        var face = TrackedFace(observation: FaceObservation(bounds: box, confidence: 0.9), trackID: 1, source: .predicted)
        face.unseenFrames = 5
        XCTAssertEqual(MaskRegion.region(of: face), five)
        face.maskRegion = box
        XCTAssertEqual(MaskRegion.region(of: face), box)
    }
}
