import Identity
import Pipeline
import XCTest

/// The names' threshold `--known` and `find` use by default: a track's gallery 0.44 from a known
/// photo is named (25 of the corpus tune half's 893 known galleries lay from 0.42 to 0.487 from their
/// person's still); one at 0.47 is not (strangers' galleries came no closer than 0.502).
final class KnownThresholdTests: XCTestCase {
    private func unit(_ axis: Int) -> [Float] { (0..<256).map { $0 == axis ? 1 : 0 } }

    /// A gallery of two samples `distance` from `person` (along an axis no photo uses).
    private func gallery(_ distance: Float, from person: [Float]) -> TrackGallery {
        var gallery = TrackGallery()
        var values = person
        values[200] = distance
        for time in [0.0, 0.5] { gallery.add(FaceSample(embedding: FaceEmbedding(values: values), quality: 0.5, time: time)) }
        return gallery
    }

    func testAGalleryAtThePinnedThresholdIsNamedAndBeyondItNot() throws {
        let threshold = Float(IdentitySettings().knownThreshold)
        let known = KnownPeople(people: [KnownPeople.Person(name: "A", embeddings: [FaceEmbedding(values: unit(0))]),
                                         KnownPeople.Person(name: "B", embeddings: [FaceEmbedding(values: unit(1))])],
                                threshold: threshold)
        XCTAssertEqual(known.match(gallery(0.44, from: unit(0)))?.name, "A", "0.44 from A, 1.1 from B")
        XCTAssertEqual(try XCTUnwrap(known.match(gallery(0.44, from: unit(0)))?.distance), 0.44, accuracy: 1e-5)
        XCTAssertNil(known.match(gallery(0.47, from: unit(0))), "0.47: nearer a stranger's 0.502 than a name")
    }
}
