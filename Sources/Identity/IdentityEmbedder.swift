import FaceCore

/// The two face-recognition networks identities are decided with, read once and shared by the
/// `IdentityEmbedder`s of several threads.
package struct IdentityModels: Sendable {
    /// dlib's descriptor.
    package let dlib: FaceEmbeddingModel
    /// OpenCV Zoo's SFace.
    package let sface: SFaceModel

    /// Reads both model files from the models folder `models` finds; a missing or damaged one
    /// throws a one-line `ModelError` naming it.
    package init(models: ModelLocator) throws {
        dlib = try FaceEmbeddingModel(models: models)
        sface = try SFaceModel(models: models)
    }

    /// The model files the models folder `models` finds lacks (none when both are installed).
    package static func missingFiles(models: ModelLocator) -> [String] {
        [(FaceEmbeddingModel.fileName, FaceEmbeddingModel.isInstalled(models: models)),
         (SFaceModel.fileName, SFaceModel.isInstalled(models: models))].filter { !$0.1 }.map(\.0)
    }
}

/// The embedding identities are decided with: dlib's descriptor (the chip and its mirror image,
/// `FaceEmbedder`) and SFace's unit vector (`SFaceEmbedder`) joined into one vector of 256 values,
/// so that the Euclidean distance of two of them weighs both networks' distances alike:
/// `scale * sqrt(dlib² + sface²)`.
///
/// Why two: on the identity corpus's edit sequences (docs/identity.md, "Two networks, one
/// distance"), one person's returns and two different people overlap under either network alone
/// (dlib: returns up to 0.478, two people from 0.450), while the joined distance leaves a gap on
/// the tune half. `scale` puts that gap where dlib's alone was decided (0.4), so every threshold
/// of `ReidentificationSettings` and `KnownPeople` keeps its number.
///
/// Not thread-safe (both networks reuse their buffers): make one per thread, sharing one `IdentityModels`.
package final class IdentityEmbedder {
    /// Multiplies both parts: 0.4 / (0.7 * sqrt 2), so that the tune half's joined-distance
    /// threshold, 0.7 of the root mean square of the two distances, reads 0.4.
    package static let scale: Float = 0.404_061

    /// dlib's part; its sample's quality is the joined sample's.
    package let dlib: FaceEmbedder
    /// SFace's part.
    package let sface: SFaceEmbedder

    /// Prepares both networks; SFace's (about 15 ms a face, three times dlib's two views) is split
    /// over `threads` threads: a video's embeddings run on its serial tracking stage.
    package init(models: IdentityModels, threads: Int = 1) throws {
        dlib = try FaceEmbedder(model: models.dlib)
        sface = try SFaceEmbedder(model: models.sface, threads: threads)
    }

    /// The joined embedding of `face` in `image` and dlib's quality score of its chip; nil when
    /// the detector gave no eyes or no mouth.
    package func sample(of face: FaceObservation, in image: BGRAImage) -> FaceSample? {
        guard let second = sface.embedding(of: face, in: image), let first = dlib.sample(of: face, in: image) else {
            return nil
        }
        return FaceSample(embedding: Self.joined(first.embedding, second), quality: first.quality)
    }

    /// The joined embedding of `face` in `image`; nil when the detector gave no eyes or no mouth.
    package func embedding(of face: FaceObservation, in image: BGRAImage) -> FaceEmbedding? {
        sample(of: face, in: image)?.embedding
    }

    /// dlib's descriptor and SFace's unit vector, one after the other, both times `scale`.
    package static func joined(_ dlib: FaceEmbedding, _ sface: FaceEmbedding) -> FaceEmbedding {
        var values = [Float](repeating: 0, count: dlib.values.count + sface.values.count)
        for index in dlib.values.indices { values[index] = dlib.values[index] * scale }
        for index in sface.values.indices { values[dlib.values.count + index] = sface.values[index] * scale }
        return FaceEmbedding(values: values)
    }
}
