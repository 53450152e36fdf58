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

    /// The share of `box`'s pixels inside the mask the renderer draws around `region` at scale 1.3.
    private func maskedShare(of box: Rect, region: Rect) throws -> Double {
        let mask = try XCTUnwrap(EllipseMask(face: region, scale: 1.3))
        var inside = 0, all = 0
        for y in Int(box.y)..<Int(box.maxY) {
            for x in Int(box.x)..<Int(box.maxX) {
                all += 1
                if mask.span(row: y, within: PixelRect(x0: x, y0: y, x1: x + 1, y1: y + 1)) != nil { inside += 1 }
            }
        }
        return Double(inside) / Double(all)
    }

    private func detection(_ box: Rect, serial: Int, source: ObservationSource = .refined) -> TrackedFace {
        var observation = FaceObservation(bounds: box, confidence: 0.9)
        observation.source = source
        var face = TrackedFace(observation: observation, trackID: 1, source: source)
        face.trackSerial = serial
        return face
    }

    /// A 30 px face moving right 4 px a frame, detected whole on frames 0-4; on frame 5 the
    /// detector finds only its right half (a 15 x 30 box: the other half hidden or blurred). The
    /// mask still covers the face: the region joins the track's forecast head. The detection's own
    /// region (all f7d14dc had) leaves the face exposed.
    func testADetectionHalfTheFaceKeepsTheTracksRecentHead() throws {
        var recent = MaskRegion.Recent()
        for frame in 0..<5 {
            let box = Rect(x: 100 + 4 * Double(frame), y: 50, width: 30, height: 30)
            XCTAssertEqual(recent.region(of: detection(box, serial: 7), frame: frame), box, "a steady face: its own head")
        }
        let face = Rect(x: 120, y: 50, width: 30, height: 30)
        let half = Rect(x: 135, y: 50, width: 15, height: 30)
        let alone = MaskRegion.region(for: FaceObservation(bounds: half, confidence: 0.9), unseenFrames: 0)
        XCTAssertLessThan(try maskedShare(of: face, region: alone), 0.8, "the half box's own mask exposes the face")
        let region = recent.region(of: detection(half, serial: 7), frame: 5)
        XCTAssertEqual(region.x, 120, accuracy: 1e-9, "reaches the forecast head's left edge")
        XCTAssertEqual(region.maxX, alone.maxX, accuracy: 1e-9, "and the half box's head (widened to 0.8 of its height)")
        XCTAssertGreaterThanOrEqual(try maskedShare(of: face, region: region), 0.8)
        // Another track, a face in no track and a face not seen keep their own regions.
        XCTAssertEqual(recent.region(of: detection(half, serial: 8), frame: 5), alone)
        XCTAssertEqual(recent.region(of: detection(half, serial: 0), frame: 5), alone)
        var held = detection(half, serial: 7, source: .predicted)
        held.unseenFrames = 2
        XCTAssertEqual(recent.region(of: held, frame: 6), MaskRegion.grown(alone, unseenFrames: 2))
    }

    /// The floor is never larger than the track's latest head (a face moving away shrinks steadily),
    /// and a track not detected for `recentFrames` frames is forgotten.
    func testRecentHeadsFollowAShrinkingFaceAndAreForgotten() {
        var recent = MaskRegion.Recent()
        var last = Rect(x: 0, y: 0, width: 0, height: 0)
        for frame in 0..<8 {
            let side = 40 - 2 * Double(frame)
            let box = Rect(centerX: 200, centerY: 100, width: side, height: side)
            let region = recent.region(of: detection(box, serial: 3), frame: frame)
            if frame >= 2 {
                XCTAssertEqual(region.width, last.width, accuracy: 1e-9, "the last head's size, not the median's")
            }
            last = box
        }
        recent.forget(before: 7 + MaskRegion.recentFrames + 1)
        let small = Rect(centerX: 200, centerY: 100, width: 10, height: 10)
        XCTAssertEqual(recent.region(of: detection(small, serial: 3), frame: 7 + MaskRegion.recentFrames + 1), small)
    }
}
