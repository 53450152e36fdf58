import FaceCore
import Foundation

/// A `--known` folder that cannot be used: one line naming the photo or folder.
package enum KnownPeopleError: Error, CustomStringConvertible, Equatable {
    /// The folder cannot be listed.
    case unreadableFolder(path: String, reason: String)
    /// The folder (or a person's subfolder) holds no photo.
    case noPhotos(folder: String)
    /// A photo cannot be read.
    case unreadablePhoto(path: String, reason: String)
    /// A photo shows no face with eyes (which alignment needs).
    case noFace(path: String)
    /// A photo shows more than one face, so whose name it is cannot be told.
    case severalFaces(path: String, count: Int)

    /// One line for the user.
    package var description: String {
        switch self {
        case let .unreadableFolder(path, reason): return "\(path): cannot read the known-people folder (\(reason))"
        case let .noPhotos(folder): return "\(folder): no photos of known people (NAME.jpg, NAME.png or NAME/*.jpg)"
        case let .unreadablePhoto(path, reason): return "\(path): cannot read the photo (\(reason))"
        case let .noFace(path): return "\(path): no face found in this photo of a known person"
        case let .severalFaces(path, count):
            return "\(path): \(count) faces in this photo of a known person (it must show exactly one)"
        }
    }
}

/// People to recognise by name, from a folder of photos: `DIR/NAME.jpg` or `DIR/NAME.png` (one
/// photo, one face) and `DIR/NAME/*.jpg|png` (several photos of one person, e.g. with and without
/// glasses). A face is that person's when its embedding lies closer than `threshold` to one of
/// their photos, and closer to them than to anyone else; otherwise it is a stranger. The default
/// 0.5 is stricter than dlib's 0.6: with one still of each of four people known, 0.6 named 6 of
/// 80 strangers' faces (dlib's labelled photos), 0.5 none, and still named all 65 other frames
/// of the four people right.
package struct KnownPeople: Sendable {
    /// One known person.
    package struct Person: Sendable, Equatable {
        /// The name: the photo's or the folder's name without extension.
        package var name: String
        /// One embedding per photo.
        package var embeddings: [FaceEmbedding]

        /// Creates a person.
        package init(name: String, embeddings: [FaceEmbedding]) {
            self.name = name
            self.embeddings = embeddings
        }
    }

    /// The people, sorted by name.
    package let people: [Person]
    /// Largest distance to a person's photo that still names the face.
    package var threshold: Float

    /// People given directly.
    package init(people: [Person], threshold: Float = 0.5) {
        self.people = people.sorted { $0.name < $1.name }
        self.threshold = threshold
    }

    /// The names, sorted.
    package var names: [String] { people.map(\.name) }

    /// Reads `folder`: each photo through `loadImage` (MediaIO's `ImageLoader` in the tool), its
    /// faces through `detect`, and the one face's embedding through `embedder`. Throws
    /// `KnownPeopleError` for a photo without a face or with several, before any video is read.
    package static func load(folder: String, embedder: FaceEmbedder, threshold: Float = 0.5,
                             loadImage: (String) throws -> BGRAImage,
                             detect: (BGRAImage) throws -> [FaceObservation]) throws -> KnownPeople {
        var people: [Person] = []
        for (name, photos) in try photoFiles(in: folder) {
            var embeddings: [FaceEmbedding] = []
            for path in photos {
                let image: BGRAImage
                do {
                    image = try loadImage(path)
                } catch {
                    throw KnownPeopleError.unreadablePhoto(path: path, reason: "\(error)")
                }
                let faces = try detect(image)
                guard faces.count <= 1 else { throw KnownPeopleError.severalFaces(path: path, count: faces.count) }
                guard let face = faces.first, let embedding = embedder.embedding(of: face, in: image) else {
                    throw KnownPeopleError.noFace(path: path)
                }
                embeddings.append(embedding)
            }
            people.append(Person(name: name, embeddings: embeddings))
        }
        return KnownPeople(people: people, threshold: threshold)
    }

    /// The photos of each person in `folder`, by name, sorted.
    static func photoFiles(in folder: String) throws -> [(name: String, photos: [String])] {
        let manager = FileManager.default
        func listing(_ path: String) throws -> [String] {
            do {
                return try manager.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
            } catch {
                throw KnownPeopleError.unreadableFolder(path: path, reason: (error as NSError).localizedDescription)
            }
        }
        func isPhoto(_ file: String) -> Bool {
            ["jpg", "jpeg", "png"].contains((file as NSString).pathExtension.lowercased())
        }
        var result: [(String, [String])] = []
        for entry in try listing(folder) {
            let path = (folder as NSString).appendingPathComponent(entry)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let photos = try listing(path).filter(isPhoto).map { (path as NSString).appendingPathComponent($0) }
                guard !photos.isEmpty else { throw KnownPeopleError.noPhotos(folder: path) }
                result.append((entry, photos))
            } else if isPhoto(entry) {
                result.append(((entry as NSString).deletingPathExtension, [path]))
            }
        }
        guard !result.isEmpty else { throw KnownPeopleError.noPhotos(folder: folder) }
        // NAME.jpg beside NAME/: one person with all of those photos.
        var merged: [String: [String]] = [:]
        for (name, photos) in result { merged[name, default: []] += photos }
        return merged.keys.sorted().map { ($0, merged[$0] ?? []) }
    }

    /// The known person `embedding` belongs to and its distance to their closest photo; nil for a stranger.
    package func match(_ embedding: FaceEmbedding) -> (name: String, distance: Float)? {
        var best: (name: String, distance: Float)?
        for person in people {
            for photo in person.embeddings {
                let distance = photo.distance(to: embedding)
                if distance < (best?.distance ?? .infinity) { best = (person.name, distance) }
            }
        }
        guard let best, best.distance < threshold else { return nil }
        return best
    }

    /// The known person a track's gallery belongs to: its centroid within `threshold` of that person's
    /// closest photo and at least `margin` closer to them than to anyone else, from `minimumSamples`
    /// samples on; nil for a stranger, a gallery too small to judge, or a face between two people. On
    /// the identity corpus's tune half (docs/identity.md), a stranger's single picture came within
    /// 0.39 of a known photo, two averaged no closer than 0.49.
    package func match(_ gallery: TrackGallery, minimumSamples: Int = 2, margin: Float = 0.08) -> (name: String, distance: Float)? {
        guard gallery.samples.count >= minimumSamples, let centroid = gallery.centroid else { return nil }
        var best: (name: String, distance: Float)?
        var runnerUp = Float.infinity
        for person in people {
            let distance = person.embeddings.map { $0.distance(to: centroid) }.min() ?? .infinity
            if distance < (best?.distance ?? .infinity) {
                runnerUp = best?.distance ?? .infinity
                best = (person.name, distance)
            } else {
                runnerUp = min(runnerUp, distance)
            }
        }
        guard let best, best.distance < threshold, runnerUp - best.distance >= margin else { return nil }
        return best
    }
}
