import Detection
import FaceCore
import Foundation
import Identity
import MediaIO
import XCTest

/// The descriptor averaged over the chip and its mirror image (`EmbeddingViews`): a face and the
/// same face mirrored give one descriptor, on committed photos (Fixtures/README.md).
final class EmbeddingViewTests: XCTestCase {
    /// `image` mirrored left to right.
    private func mirrored(_ image: BGRAImage) -> BGRAImage {
        let result = BGRAImage(width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image.pixel(x: x, y: y)
                result.setPixel(x: image.width - 1 - x, y: y, b: pixel.b, g: pixel.g, r: pixel.r, a: pixel.a)
            }
        }
        return result
    }

    /// `face` as it lies in the mirrored picture `width` wide: the eye on the picture's left is
    /// the other eye.
    private func mirrored(_ face: FaceObservation, width: Int) -> FaceObservation {
        func flip(_ point: Point?) -> Point? { point.map { Point(x: Double(width) - $0.x, y: $0.y) } }
        var result = FaceObservation(bounds: Rect(x: Double(width) - face.bounds.x - face.bounds.width, y: face.bounds.y,
                                                  width: face.bounds.width, height: face.bounds.height),
                                     confidence: face.confidence)
        result.leftEye = flip(face.rightEye)
        result.rightEye = flip(face.leftEye)
        result.nose = flip(face.nose)
        result.mouth = flip(face.mouth)
        return result
    }

    /// Distances between each photo's descriptor and its mirror image's, with `views` (nil: the
    /// product's).
    private func mirrorDistances(views: EmbeddingViews?) throws -> [String: Float] {
        let detector = try CenterFaceDetector(models: IdentityFixtures.models())
        let model = try IdentityFixtures.embeddingModel.get()
        let embedder = try views.map { try FaceEmbedder(model: model, views: $0) } ?? FaceEmbedder(model: model)
        var result: [String: Float] = [:]
        for name in ["hopper_1", "hopper_2", "astronaut_1", "astronaut_2"] {
            let image = try ImageLoader.load(path: try IdentityFixtures.path("photo_\(name).jpg")).image
            let face = try XCTUnwrap(try detector.detect(in: image).max { $0.bounds.area < $1.bounds.area }, name)
            let original = try XCTUnwrap(embedder.sample(of: face, in: image), name)
            let flipped = try XCTUnwrap(embedder.sample(of: mirrored(face, width: image.width), in: mirrored(image)), name)
            result[name] = original.embedding.distance(to: flipped.embedding)
            XCTAssertEqual(original.quality, embedder.sample(of: face, in: image)?.quality, name)
        }
        return result
    }

    func testTheProductGivesAFaceAndItsMirrorImageOneDescriptor() throws {
        // Measured: plain 0.137 to 0.205, the product's (chip and mirror image averaged) 0.0001 and less.
        let plain = try mirrorDistances(views: .plain)
        let product = try mirrorDistances(views: nil)
        for (name, distance) in product.sorted(by: { $0.key < $1.key }) {
            print(String(format: "%@ against its mirror image: plain %.4f, the product's %.5f", name,
                         plain[name] ?? -1, distance))
            XCTAssertLessThan(distance, 0.001, name)
            XCTAssertGreaterThan(plain[name] ?? 0, 0.1, "\(name): the plain descriptor is not mirror-invariant")
        }
        XCTAssertEqual(EmbeddingViews.standard, .mirrored)
    }

    /// `FaceEmbedder` runs a face's views as one batch: its descriptors are bit for bit those of the
    /// network run on one view at a time and the outputs averaged in the same order, for every set
    /// of views (2 to 12 views), and the one-chip path (`embedding(chipRGB:)`) still runs alone.
    func testBatchedViewsGiveWhatOneViewAtATimeGives() throws {
        let detector = try CenterFaceDetector(models: IdentityFixtures.models())
        let model = try IdentityFixtures.embeddingModel.get()
        let pictures = try ["hopper_1", "astronaut_2"].map { name in
            let image = try ImageLoader.load(path: try IdentityFixtures.path("photo_\(name).jpg")).image
            return (name, image, try XCTUnwrap(try detector.detect(in: image).max { $0.bounds.area < $1.bounds.area }, name))
        }
        for name in ["plain", "mirrored", "mirrored-zoomed", "mirrored-shifted"] {
            let embedder = try FaceEmbedder(model: model, views: try XCTUnwrap(EmbeddingViews(name: name)))
            for (picture, image, face) in pictures {
                let batched = try XCTUnwrap(embedder.sample(of: face, in: image), picture)
                let alone = try XCTUnwrap(embedder.embeddingViewByView(of: face, in: image), picture)
                XCTAssertTrue(batched.embedding.values == alone.values, "\(name) \(picture)")
                // Again after the one-image network ran on the arena they share.
                XCTAssertTrue(embedder.sample(of: face, in: image)?.embedding.values == alone.values, "\(name) \(picture)")
                XCTAssertEqual(embedder.sample(of: face, in: image)?.quality, batched.quality)
            }
        }
        let chip = try IdentityFixtures.ppm("chip_hopper.ppm")
        let mirrored = try FaceEmbedder(model: model), plain = try FaceEmbedder(model: model, views: .plain)
        XCTAssertTrue(try XCTUnwrap(mirrored.embedding(chipRGB: chip.rgb)).values
                      == XCTUnwrap(plain.embedding(chipRGB: chip.rgb)).values)
    }

    func testTheMirroredChipKeepsTheFaceInPlace() throws {
        // A chip whose transform is the identity: mirrored, chip column c samples the frame at
        // 2 * 74.513 - (c + 0.5), so the template's axis stays where it is.
        let image = BGRAImage(width: 200, height: 200)
        for y in 0..<200 {
            for x in 0..<200 { image.setPixel(x: x, y: y, b: 0, g: 0, r: UInt8(x)) }
        }
        let chip = FaceChip(frameToChip: SimilarityTransform(a: 1, b: 0, tx: 0, ty: 0))
        var straight = [Float](repeating: 0, count: FaceChip.size * FaceChip.size * 3), flipped = straight
        straight.withUnsafeMutableBufferPointer { chip.sample(image, into: $0) }
        flipped.withUnsafeMutableBufferPointer { chip.sample(image, into: $0, mirrored: true) }
        for column in [0, 37, 74, 111, 148] {
            let red = flipped[(10 * FaceChip.size + column) * 3]
            XCTAssertEqual(red, Float(2 * FaceChip.nose.x - Double(column) - 1), accuracy: 1e-3, "column \(column)")
        }
        XCTAssertEqual(straight[(10 * FaceChip.size + 74) * 3], 74, accuracy: 1e-3)
    }
}
