import Scheduling
import XCTest

/// The shot-boundary detector on made-up 32 x 18 colour samples: a cut that keeps brightness,
/// flashes, a pan, a dissolve and a fade through black.
final class ShotBoundaryTests: XCTestCase {
    private static let points = ShotBoundaryDetector.columns * ShotBoundaryDetector.rows

    /// A picture: a backdrop of `colour`, a pale oval "face" in the middle shifted by `shift`
    /// columns, and a little per-frame noise from `seed`.
    private func picture(_ colour: (Double, Double, Double), shift: Int = 0, seed: Int) -> [Double] {
        var out = [Double](repeating: 0, count: Self.points * 3)
        var state = UInt64(seed &+ 7) &* 2_862_933_555_777_941_757
        for row in 0..<ShotBoundaryDetector.rows {
            for column in 0..<ShotBoundaryDetector.columns {
                let i = row * ShotBoundaryDetector.columns + column
                let dx = Double(column - 16 - shift) / 5, dy = Double(row - 9) / 6
                let face = dx * dx + dy * dy < 1
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(state >> 60) - 7.5
                let stripe = Double((column + shift) % 8 < 4 ? 12 : -12)
                let c = face ? (200.0, 160.0, 140.0) : (colour.0 + stripe, colour.1 + stripe, colour.2 + stripe)
                out[3 * i] = c.0 + noise
                out[3 * i + 1] = c.1 + noise
                out[3 * i + 2] = c.2 + noise
            }
        }
        return out
    }

    private func bytes(_ values: [Double]) -> [UInt8] { values.map { UInt8(clamping: Int($0.rounded())) } }

    /// Runs the detector over the pictures; the frames it marks, with their kind.
    private func boundaries(_ frames: [[Double]], fps: Double = 25) -> [Int: ShotBoundary] {
        var detector = ShotBoundaryDetector(framesPerSecond: fps)
        var found: [Int: ShotBoundary] = [:]
        for frame in frames {
            if let verdict = detector.push(bytes(frame)), let boundary = verdict.boundary { found[verdict.frame] = boundary }
        }
        for verdict in detector.finish() { if let boundary = verdict.boundary { found[verdict.frame] = boundary } }
        return found
    }

    // Wood brown and a teal of the same brightness (Y 90): only colour tells them apart.
    private let wood = (122.0, 82.0, 48.0), teal = (40.0, 104.0, 120.0), grey = (90.0, 90.0, 90.0)

    /// a3f124c's detector needed the brightness histogram to move and missed this cut.
    func testCutBetweenShotsOfEqualBrightnessIsFoundWhereItIs() {
        let frames = (0..<40).map { picture(wood, seed: $0) } + (40..<80).map { picture(teal, seed: $0) }
        XCTAssertEqual(boundaries(frames), [40: .cut])
    }

    func testFlashesAndAPanAreNoBoundaries() {
        var frames = (0..<60).map { picture(grey, shift: $0 / 6, seed: $0) }
        for flash in [20, 21, 45] { frames[flash] = frames[flash].map { $0 * 0.25 + 190 } }
        XCTAssertEqual(boundaries(frames), [:])
    }

    func testDissolveIsMarkedAtItsMiddle() {
        let a = (0..<50).map { picture(wood, seed: $0) }, b = (38..<100).map { picture(teal, shift: 4, seed: $0) }
        // Frames 38...49 mix the shots (a twelfth more of b on each), then b alone.
        var frames = Array(a[0..<38])
        for k in 0..<12 {
            let weight = Double(k + 1) / 13
            frames.append(zip(a[38 + k], b[k]).map { $0 * (1 - weight) + $1 * weight })
        }
        frames += b[12...]
        let found = boundaries(frames)
        XCTAssertEqual(found.count, 1, "\(found)")
        if let (frame, kind) = found.first {
            XCTAssertEqual(kind, .dissolve)
            XCTAssertTrue((41...46).contains(frame), "marked at frame \(frame), the dissolve's middle is 43-44")
        }
    }

    func testFadeThroughBlackStartsAShotWhereThePictureReturns() {
        var frames = (0..<40).map { picture(wood, seed: $0) }
        for k in 0..<6 { frames.append(picture(wood, seed: 40 + k).map { $0 * Double(5 - k) / 6 }) }
        frames += (0..<4).map { _ in [Double](repeating: 16, count: Self.points * 3) }
        for k in 0..<6 { frames.append(picture(teal, seed: 50 + k).map { max(16, $0 * Double(k + 1) / 7) }) }
        frames += (56..<90).map { picture(teal, seed: $0) }
        let found = boundaries(frames)
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.values.first, .fade)
    }
}
