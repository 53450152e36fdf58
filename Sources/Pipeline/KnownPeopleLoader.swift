import Detection
import FaceCore
import Identity
import MediaIO

/// Reads a `--known` folder with the job's detector: each photo decoded upright, its faces found
/// as `detect` finds them in a still, the one face embedded. Done once, before any video is read.
package enum KnownPeopleLoader {
    /// The longest side a known photo keeps (scaled down while it is decoded): a portrait's face
    /// is still hundreds of pixels, and an 8000 px photo costs a second, not half a minute of tiles.
    package static let largestPhoto = 2048

    /// The people of `folder`; a photo without a face or with several throws `KnownPeopleError`.
    package static func load(folder: String, detection: DetectionSettings, model: IdentityModels,
                             threshold: Double) throws -> KnownPeople {
        guard let detector = try detection.makeDetector(threshold: detection.effectiveThreshold) else {
            throw KnownPeopleError.unreadableFolder(path: folder, reason: "--known needs a face detector")
        }
        let still = StillImageDetection(detector: detector, kind: detection.detector)
        let embedder = try IdentityEmbedder(models: model)
        return try KnownPeople.load(folder: folder, embedder: embedder, threshold: Float(threshold),
                                    loadImage: { try ImageLoader.load(path: $0, maxSide: largestPhoto).image },
                                    detect: { image in try still.faces(in: image).filter(\.isValid) })
    }

    /// One person from one photo (`facetrack find --face`), named `name`; a photo without a face
    /// or with several throws `KnownPeopleError`.
    package static func load(photo path: String, name: String, detection: DetectionSettings, model: IdentityModels,
                             threshold: Double) throws -> KnownPeople {
        guard let detector = try detection.makeDetector(threshold: detection.effectiveThreshold) else {
            throw KnownPeopleError.noFace(path: path)
        }
        let still = StillImageDetection(detector: detector, kind: detection.detector)
        return try KnownPeople.load(photo: path, name: name, embedder: try IdentityEmbedder(models: model),
                                    threshold: Float(threshold),
                                    loadImage: { try ImageLoader.load(path: $0, maxSide: largestPhoto).image },
                                    detect: { image in try still.faces(in: image).filter(\.isValid) })
    }
}
