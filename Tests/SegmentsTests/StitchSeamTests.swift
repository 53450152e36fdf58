import FaceCore
import Identity
import Segments
import XCTest

/// The seam is one to one: an earlier segment's track continues one later track at most, so two
/// people the later segment told apart are not merged because the earlier one's tail (decided on
/// the least evidence) still had them as one.
final class StitchSeamTests: XCTestCase {
    private func gallery(_ values: [Float]) -> TrackGallery {
        var gallery = TrackGallery()
        gallery.add(FaceSample(embedding: FaceEmbedding(values: values), quality: 1))
        return gallery
    }

    func testAnEarlierTrackContinuesOneLaterTrackAndTheOtherIsReidentified() {
        var assigner = IdentityAssigner(reidentification: .init(threshold: 0.5, window: nil, framesPerSecond: 25))
        let a = gallery([1, 0, 0]), b = gallery([0, 1, 0])
        // First segment: A (track 1) leaves at 40, B (track 2) runs to the seam.
        XCTAssertEqual(assigner.assign([.init(id: 1, first: 0, last: 40, gallery: a), .init(id: 2, first: 0, last: 59, gallery: b)],
                                       matches: []), [1: 0, 2: 1])
        // Later segment: B (track 5) until 70, then A again (track 6) where B was; the earlier
        // segment's tail still had both as its track 2.
        let result = assigner.assign([.init(id: 5, first: 60, last: 70, gallery: b), .init(id: 6, first: 71, last: 99, gallery: a)],
                                     matches: [.init(later: 5, earlier: 2, frames: 30), .init(later: 6, earlier: 2, frames: 4)])
        XCTAssertEqual(result, [5: 1, 6: 0], "B continues B; A is A again by its embeddings, not B")
        XCTAssertEqual(assigner.continuedByBoxes, 1)
        XCTAssertEqual(assigner.continuedByEmbeddings, 1)
    }
}
