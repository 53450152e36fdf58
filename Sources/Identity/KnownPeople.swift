import FaceCore
import Foundation

/// A `--known` folder that cannot be used: one line naming the photo or folder.
public enum KnownPeopleError: Error, CustomStringConvertible, Equatable, Sendable {
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
    /// An entry of the folder that cannot name a person (a link leading out of the folder, one
    /// name given by several photos or folders).
    case unusableEntry(path: String, reason: String)

    /// One line for the user.
    public var description: String {
        switch self {
        case let .unreadableFolder(path, reason): return "\(path): cannot read the known-people folder (\(reason))"
        case let .noPhotos(folder): return "\(folder): no photos of known people (NAME.jpg, NAME.png or NAME/*.jpg)"
        case let .unreadablePhoto(path, reason): return "\(path): cannot read the photo (\(reason))"
        case let .noFace(path): return "\(path): no face found in this photo of a known person"
        case let .severalFaces(path, count):
            return "\(path): \(count) faces in this photo of a known person (it must show exactly one)"
        case let .unusableEntry(path, reason): return "\(path): \(reason)"
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
    /// The photo files read, for the outputs to keep clear of.
    package var photos: [String] = []
    /// Photos read whose face is too small or soft to compare reliably; the commands warn about them.
    package var poorPhotos: [PoorPhoto] = []
    /// Largest distance to a person's photo that still names the face.
    package var threshold: Float

    /// People given directly.
    package init(people: [Person], threshold: Float = 0.5) {
        self.people = people.sorted { $0.name < $1.name }
        self.threshold = threshold
    }

    /// The names, sorted.
    package var names: [String] { people.map(\.name) }

    /// One warning line per poor photo.
    package var poorPhotoNotices: [String] { poorPhotos.map(\.notice) }

    /// Reads `folder`: each photo through `loadImage` (MediaIO's `ImageLoader` in the tool), its
    /// faces through `detect`, and the one face's embedding through `embedder`. Throws
    /// `KnownPeopleError` for a photo without a face or with several, before any video is read.
    package static func load(folder: String, embedder: IdentityEmbedder, threshold: Float = 0.5,
                             loadImage: (String) throws -> BGRAImage,
                             detect: (BGRAImage) throws -> [FaceObservation]) throws -> KnownPeople {
        var people: [Person] = []
        var poor: [PoorPhoto] = []
        for (name, photos) in try photoFiles(in: folder) {
            var embeddings: [FaceEmbedding] = []
            for path in photos {
                let photo = try read(photo: path, name: name, embedder: embedder, loadImage: loadImage, detect: detect)
                embeddings.append(photo.embedding)
                if let photo = photo.poor { poor.append(photo) }
            }
            people.append(Person(name: name, embeddings: embeddings))
        }
        var known = KnownPeople(people: people, threshold: threshold)
        known.photos = try photoFiles(in: folder).flatMap(\.photos)
        known.poorPhotos = poor
        return known
    }

    /// One person, `name`, from the one photo at `path` (`facetrack find --face`), read as `load`
    /// reads each photo of a folder.
    package static func load(photo path: String, name: String, embedder: IdentityEmbedder, threshold: Float,
                             loadImage: (String) throws -> BGRAImage,
                             detect: (BGRAImage) throws -> [FaceObservation]) throws -> KnownPeople {
        let photo = try read(photo: path, name: name, embedder: embedder, loadImage: loadImage, detect: detect)
        var known = KnownPeople(people: [Person(name: name, embeddings: [photo.embedding])], threshold: threshold)
        known.poorPhotos = photo.poor.map { [$0] } ?? []
        return known
    }

    /// The embedding of the one face in the photo at `path`, and the photo when it is poor; throws
    /// `KnownPeopleError` for an unreadable photo, one without a face or with several.
    private static func read(photo path: String, name: String, embedder: IdentityEmbedder,
                             loadImage: (String) throws -> BGRAImage,
                             detect: (BGRAImage) throws -> [FaceObservation]) throws
        -> (embedding: FaceEmbedding, poor: PoorPhoto?) {
        let image: BGRAImage
        do {
            image = try loadImage(path)
        } catch {
            throw KnownPeopleError.unreadablePhoto(path: path, reason: "\(error)")
        }
        let faces = try detect(image)
        guard faces.count <= 1 else { throw KnownPeopleError.severalFaces(path: path, count: faces.count) }
        guard let face = faces.first, let sample = embedder.sample(of: face, in: image) else {
            throw KnownPeopleError.noFace(path: path)
        }
        return (sample.embedding, PoorPhoto(path: path, name: name, face: face, quality: sample.quality))
    }

    /// The photos of each person in `folder`, by name, sorted: `NAME.jpg|png` or `NAME/*.jpg|png`.
    /// One name from several places (`alice.jpg` and `alice.png`, or `alice.jpg` beside `alice/`)
    /// is refused, since they may show different people; links are followed only while they stay
    /// inside the folder (a link to `..` is no person).
    package static func photoFiles(in folder: String) throws -> [(name: String, photos: [String])] {
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
        let root = realPath(folder) ?? folder
        /// Whether `path`, a link, leads to something strictly inside the folder.
        func staysInside(_ path: String) -> Bool {
            guard let target = realPath(path) else { return true }  // dangling: reading the photo says so
            return target.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
        func isLink(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        }
        var sources: [String: [String]] = [:]
        var result: [String: [String]] = [:]
        for entry in try listing(folder) {
            let path = (folder as NSString).appendingPathComponent(entry)
            var isDirectory: ObjCBool = false
            let exists = manager.fileExists(atPath: path, isDirectory: &isDirectory)
            guard exists || isLink(path) else { continue }
            if isLink(path) && !staysInside(path) && (isDirectory.boolValue || isPhoto(entry)) {
                throw KnownPeopleError.unusableEntry(path: path, reason: "a link leading out of the known-people folder (not followed)")
            }
            let name: String
            var photos: [String]
            if isDirectory.boolValue {
                name = entry
                photos = try listing(path).filter(isPhoto).map { (path as NSString).appendingPathComponent($0) }
                guard !photos.isEmpty else { throw KnownPeopleError.noPhotos(folder: path) }
                if let outside = photos.first(where: { isLink($0) && !staysInside($0) }) {
                    throw KnownPeopleError.unusableEntry(path: outside, reason: "a link leading out of the known-people folder (not followed)")
                }
            } else if isPhoto(entry) {
                name = (entry as NSString).deletingPathExtension
                photos = [path]
            } else {
                continue
            }
            sources[name, default: []].append(isDirectory.boolValue ? entry + "/" : entry)
            result[name, default: []] += photos
        }
        guard !result.isEmpty else { throw KnownPeopleError.noPhotos(folder: folder) }
        for name in sources.keys.sorted() where sources[name]!.count > 1 {
            let places = sources[name]!
            throw KnownPeopleError.unusableEntry(
                path: (folder as NSString).appendingPathComponent(name),
                reason: "the name '\(name)' comes from \(places.dropLast().joined(separator: ", ")) and \(places.last!); "
                    + "one person's photos go in one place (\(name)/ for several)")
        }
        return result.keys.sorted().map { ($0, result[$0] ?? []) }
    }

    /// The path with every link and `..` resolved, nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
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
    /// 0.39 of a known photo, two averaged no closer than 0.49 (dlib's descriptor alone); with the
    /// joined embedding, a stranger's shot gallery came no closer than 0.505 to a known still.
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

/// A known photo whose face is too small or soft to compare reliably: its chip's quality
/// (`FaceQuality`) is under what a face in a video needs to count (`ReidentificationSettings.
/// minimumQuality`). Such a face matches anyone poorly: on the identity corpus a 25 px still of
/// quality 0.005 was the known face strangers' tracks came closest to. Read anyway, and said.
package struct PoorPhoto: Sendable, Equatable {
    package let path: String
    package let name: String
    /// The distance between the eyes in the photo's pixels, when the detector gave both.
    package let eyeDistance: Double?
    package let quality: Double

    /// The least quality a photo's face needs not to be poor.
    package static let leastQuality = ReidentificationSettings().minimumQuality

    /// The photo at `path` of `name`, whose `face` embedded at `quality`; nil when it is not poor.
    package init?(path: String, name: String, face: FaceObservation, quality: Double) {
        guard quality < Self.leastQuality else { return nil }
        self.path = path
        self.name = name
        eyeDistance = face.leftEye.flatMap { left in face.rightEye.map { left.distance(to: $0) } }
        self.quality = quality
    }

    /// The warning line (for a `--known` photo).
    package var notice: String { notice(consequence: "\(name) may go unnamed") }

    /// The warning line, ending with what the poor photo may cost.
    package func notice(consequence: String) -> String {
        let eyes = eyeDistance.map { String(format: "eyes %.0f px apart, ", $0) } ?? ""
        return "\(path): the face is too small or soft to compare reliably (\(eyes)quality "
            + String(format: "%.3f", quality) + ", under the " + String(format: "%.2f", Self.leastQuality)
            + " a face in a video needs to count): \(consequence); a larger, sharper photo helps"
    }
}
