import Detection
import FaceCore
import Identity
import MediaIO

/// Reads a `--known` folder with the job's detector: each photo decoded upright, its faces found
/// as `detect` finds them in a still, the one face embedded. Done once, before any video is read.
package enum KnownPeopleLoader {
    /// The people of `folder`; a photo without a face or with several throws `KnownPeopleError`.
    package static func load(folder: String, detection: DetectionSettings, model: FaceEmbeddingModel,
                             threshold: Double) throws -> KnownPeople {
        guard let detector = try detection.makeDetector(threshold: detection.effectiveThreshold) else {
            throw KnownPeopleError.unreadableFolder(path: folder, reason: "--known needs a face detector")
        }
        let still = StillImageDetection(detector: detector, kind: detection.detector)
        let embedder = try FaceEmbedder(model: model)
        return try KnownPeople.load(folder: folder, embedder: embedder, threshold: Float(threshold),
                                    loadImage: { try ImageLoader.load(path: $0).image },
                                    detect: { image in try still.faces(in: image).filter(\.isValid) })
    }
}
