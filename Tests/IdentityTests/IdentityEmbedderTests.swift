import Detection
import FaceCore
import Foundation
import Identity
import MediaIO
import TestSupport
import XCTest

/// The embedding identities are decided with: dlib's descriptor and SFace's unit vector joined
/// (docs/identity.md, "Two networks, one distance").
final class IdentityEmbedderTests: XCTestCase {
    private static let photos = ["hopper_1", "hopper_2", "astronaut_1", "astronaut_2"]

    private func embedders() throws -> (joined: IdentityEmbedder, detector: CenterFaceDetector) {
        guard (try? InstalledModels.path(SFaceModel.fileName)) != nil else {
            throw XCTSkip("\(SFaceModel.fileName) is not installed (scripts/setup)")
        }
        return (try IdentityEmbedder(models: IdentityFixtures.identityModels.get()),
                try CenterFaceDetector(models: IdentityFixtures.models()))
    }

    /// The joined distance is `scale` times the root of the sum of the two networks' squares.
    func testTheJoinedDistanceWeighsBothNetworksAlike() {
        let dlibA = FaceEmbedding(values: (0..<128).map { Float($0 % 7) * 0.01 })
        let dlibB = FaceEmbedding(values: (0..<128).map { Float($0 % 5) * 0.012 })
        var unitA = [Float](repeating: 0, count: 128), unitB = [Float](repeating: 0, count: 128)
        unitA[0] = 1
        unitB[0] = 0.6
        unitB[1] = 0.8
        let sfaceA = FaceEmbedding(values: unitA), sfaceB = FaceEmbedding(values: unitB)
        let a = IdentityEmbedder.joined(dlibA, sfaceA), b = IdentityEmbedder.joined(dlibB, sfaceB)
        XCTAssertEqual(a.values.count, 256)
        let expected = IdentityEmbedder.scale * (dlibA.distance(to: dlibB) * dlibA.distance(to: dlibB)
            + sfaceA.distance(to: sfaceB) * sfaceA.distance(to: sfaceB)).squareRoot()
        XCTAssertEqual(a.distance(to: b), expected, accuracy: 1e-6)
        // 0.4 on the joined scale is 0.7 of the two distances' root mean square (the tune half's choice).
        XCTAssertEqual(0.4 / (IdentityEmbedder.scale * Float(2).squareRoot()), 0.7, accuracy: 1e-4)
    }

    /// On the committed photos (another crop, rotated, mirrored, smaller, relit): one person's two
    /// pictures within re-identification's threshold, the two people beyond it and its split
    /// margin; each part is the network's own (dlib's views, SFace's unit vector).
    func testOnePersonWithinTheThresholdTwoPeopleBeyondIt() throws {
        let (joined, detector) = try embedders()
        var samples: [String: (joined: FaceSample, dlib: FaceSample, sface: FaceEmbedding)] = [:]
        for name in Self.photos {
            let image = try ImageLoader.load(path: try IdentityFixtures.path("photo_\(name).jpg")).image
            let face = try XCTUnwrap(try detector.detect(in: image).max { $0.bounds.area < $1.bounds.area }, name)
            samples[name] = (try XCTUnwrap(joined.sample(of: face, in: image), name),
                             try XCTUnwrap(joined.dlib.sample(of: face, in: image), name),
                             try XCTUnwrap(joined.sface.embedding(of: face, in: image), name))
        }
        let settings = ReidentificationSettings()
        for (i, a) in Self.photos.enumerated() {
            for b in Self.photos[(i + 1)...] {
                let (first, second) = (try XCTUnwrap(samples[a]), try XCTUnwrap(samples[b]))
                XCTAssertEqual(first.joined.embedding, IdentityEmbedder.joined(first.dlib.embedding, first.sface))
                XCTAssertEqual(first.joined.quality, first.dlib.quality, "dlib's quality")
                let distance = first.joined.embedding.distance(to: second.joined.embedding)
                print(String(format: "joined %@ / %@: %.3f (dlib %.3f, sface %.3f)", a, b, distance,
                             first.dlib.embedding.distance(to: second.dlib.embedding), first.sface.distance(to: second.sface)))
                if a.split(separator: "_")[0] == b.split(separator: "_")[0] {
                    XCTAssertLessThan(distance, settings.threshold, "\(a) / \(b)")
                } else {
                    XCTAssertGreaterThan(distance, settings.threshold + settings.margin, "\(a) / \(b)")
                }
            }
        }
    }
}
