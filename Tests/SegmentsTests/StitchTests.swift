import FaceCore
import Identity
import Segments
import XCTest

/// The seam: tracks of two segments matched by their boxes on the frames both read, and by
/// embeddings when a face comes back after the seam.
final class StitchTests: XCTestCase {
    private func rows(_ id: Int, frames: Range<Int>, x: Double) -> [SeamRow] {
        frames.map { SeamRow(frame: $0, id: id, box: Rect(x: x + Double($0), y: 10, width: 40, height: 50)) }
    }

    func testBoxesOnSharedFramesPairTracks() {
        // Earlier segment: tracks 1 (left) and 2 (right) through frame 59; later one reads from 40.
        let earlier = rows(1, frames: 40..<60, x: 0) + rows(2, frames: 40..<60, x: 200)
        let later = rows(7, frames: 40..<80, x: 200) + rows(5, frames: 40..<80, x: 0) + rows(9, frames: 58..<80, x: 400)
        let matches = SeamMatcher.matches(earlier: earlier, later: later)
        XCTAssertEqual(Set(matches.map { [$0.later, $0.earlier] }), [[7, 2], [5, 1]])
        XCTAssertEqual(matches.map(\.frames), [20, 20])
    }

    private func gallery(_ values: [Float]) -> TrackGallery {
        var gallery = TrackGallery()
        gallery.add(FaceSample(embedding: FaceEmbedding(values: values), quality: 1))
        return gallery
    }

    func testIdentitiesContinueAcrossSeamsAndComeBackByEmbeddings() {
        var assigner = IdentityAssigner(reidentification: .init(threshold: 0.5, window: nil, framesPerSecond: 25))
        let a = gallery([1, 0, 0]), b = gallery([0, 1, 0])
        let first = assigner.assign([.init(id: 1, first: 0, last: 59, gallery: a), .init(id: 2, first: 10, last: 30, gallery: b)],
                                    matches: [])
        XCTAssertEqual(first, [1: 0, 2: 1])
        // Track 4 continues track 1 across the seam; track 6 is face B back after it left; track 8 is new.
        let second = assigner.assign([.init(id: 4, first: 60, last: 90, gallery: a), .init(id: 6, first: 70, last: 99, gallery: b),
                                      .init(id: 8, first: 75, last: 99, gallery: gallery([0, 0, 1]))],
                                     matches: [.init(later: 4, earlier: 1, frames: 20)])
        XCTAssertEqual(second, [4: 0, 6: 1, 8: 2])
        XCTAssertEqual(assigner.continuedByBoxes, 1)
        XCTAssertEqual(assigner.continuedByEmbeddings, 1)
        // Without re-identification a face that left stays a new track, as in a single run.
        var boxesOnly = IdentityAssigner(reidentification: nil)
        _ = boxesOnly.assign([.init(id: 2, first: 10, last: 30, gallery: b)], matches: [])
        XCTAssertEqual(boxesOnly.assign([.init(id: 6, first: 70, last: 99, gallery: b)], matches: []), [6: 1])
    }

    func testTwoTracksOnOneFrameNeverShareAnIdentity() {
        var assigner = IdentityAssigner(reidentification: .init(threshold: 0.5, window: nil, framesPerSecond: 25))
        let a = gallery([1, 0, 0])
        _ = assigner.assign([.init(id: 1, first: 0, last: 59, gallery: a)], matches: [])
        // Both of the later segment's tracks overlap track 1 at the seam and live at once: one takes it.
        let result = assigner.assign([.init(id: 3, first: 60, last: 80, gallery: a), .init(id: 4, first: 60, last: 80, gallery: a)],
                                     matches: [.init(later: 3, earlier: 1, frames: 9), .init(later: 4, earlier: 1, frames: 5)])
        XCTAssertEqual(result[3], 0)
        XCTAssertNotEqual(result[4], 0)
    }
}
