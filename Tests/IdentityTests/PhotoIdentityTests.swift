import Detection
import FaceCore
import Foundation
import Identity
import MediaIO
import XCTest

/// The whole path on committed photos of two people (public-domain, see Fixtures/README.md):
/// CenterFace's landmarks, our chip alignment, the network. Each person has a head crop and a
/// second picture (other crop, rotated, mirrored, smaller, relit, more compressed).
final class PhotoIdentityTests: XCTestCase {
    private static let photos = ["hopper_1", "hopper_2", "astronaut_1", "astronaut_2"]

    /// Samples of the largest face in each photo, by name.
    static let samples = Result { () throws -> [String: FaceSample] in
        let detector = try CenterFaceDetector(models: IdentityFixtures.models())
        let embedder = try FaceEmbedder(model: IdentityFixtures.embeddingModel.get())
        var result: [String: FaceSample] = [:]
        for name in photos {
            let image = try ImageLoader.load(path: try IdentityFixtures.path("photo_\(name).jpg")).image
            let face = try XCTUnwrap(try detector.detect(in: image).max { $0.bounds.area < $1.bounds.area }, name)
            result[name] = try XCTUnwrap(embedder.sample(of: face, in: image), name)
        }
        return result
    }

    /// dlib's whole-pipeline distances (its own detector and 5-point alignment) for the same pairs.
    private func dlibDistances() throws -> [String: Float] {
        let text = try String(contentsOfFile: try IdentityFixtures.path("dlib_photo_distances.csv"), encoding: .utf8)
        var result: [String: Float] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",").map(String.init)
            result["\(fields[0]) \(fields[1])"] = Float(fields[2])
        }
        return result
    }

    func testSamePersonUnderSixTenthsOthersAbove() throws {
        let samples = try Self.samples.get()
        let dlib = try dlibDistances()
        for (i, a) in Self.photos.enumerated() {
            for b in Self.photos[(i + 1)...] {
                let (first, second) = (try XCTUnwrap(samples[a]), try XCTUnwrap(samples[b]))
                let distance = first.embedding.distance(to: second.embedding)
                let same = a.split(separator: "_")[0] == b.split(separator: "_")[0]
                if same {
                    XCTAssertLessThan(distance, 0.6, "\(a) / \(b)")
                } else {
                    XCTAssertGreaterThan(distance, 0.6, "\(a) / \(b)")
                }
                let reference = try XCTUnwrap(dlib["\(min(a, b)) \(max(a, b))"])
                print(String(format: "photos %@ / %@: ours %.3f, dlib %.3f", a, b, distance, reference))
                // Our landmarks and alignment differ from dlib's 5-point ones, so the distances differ
                // somewhat; they must still tell the same story.
                XCTAssertEqual(distance, reference, accuracy: 0.15, "\(a) / \(b) against dlib's own pipeline")
            }
        }
    }

    /// The same photo aligned by us (CenterFace's eyes, nose and mouth) and by dlib (its 5-point
    /// landmarks, chip_*.ppm): the descriptors differ only through the alignment.
    func testOurAlignmentLandsNearDlibs() throws {
        let samples = try Self.samples.get()
        let dlib = try IdentityFixtures.dlibDescriptors()
        for person in ["hopper", "astronaut"] {
            let ours = try XCTUnwrap(samples["\(person)_1"]).embedding
            let distance = ours.distance(to: FaceEmbedding(values: try XCTUnwrap(dlib[person])))
            print(String(format: "alignment %@: ours vs dlib's chip of the same photo %.3f", person, distance))
            XCTAssertLessThan(distance, 0.2, person)
        }
    }

    func testQualityRanksTheLargerSharperPictureHigher() throws {
        let samples = try Self.samples.get()
        for person in ["hopper", "astronaut"] {
            let large = try XCTUnwrap(samples["\(person)_1"]), small = try XCTUnwrap(samples["\(person)_2"])
            XCTAssertGreaterThan(large.quality, small.quality, person)
            XCTAssertTrue((0...1).contains(large.quality) && (0...1).contains(small.quality))
            print("quality \(person): \(large.quality) (head crop), \(small.quality) (altered)")
        }
    }
}
