import Attributes
import Detection
import FaceCore
import Foundation
import Identity
import MediaIO
import Tracking

/// What `facetrack detect` does, as a value: the faces of still images (jpg, png and anything
/// FFmpeg decodes, EXIF orientation applied) as CSV rows with a leading `image` column. An image
/// larger than the detector's input is also searched in full-resolution tiles; the faces found are
/// kept as a video frame's are (`DetectionFilter`) and measured by the face mesh when attributes
/// or landmarks are asked for.
///
/// ```swift
/// var job = StillImageJob(images: ["team.jpg", "portrait.png"], csv: "faces.csv")
/// job.attributes = [.smile]
/// let summary = try job.run { path, error in print(path, error) }
/// ```
public struct StillImageJob: Sendable {
    /// The images to read, in order.
    public var images: [String]
    /// The detector, its threshold and the options every detector shares.
    public var detection: DetectionSettings
    /// Face attributes measured with the face mesh (`--attributes`).
    public var attributes: AttributeSelection
    /// Known people's photos (`--known`): each face is named on its own, at the threshold for
    /// single pictures, and the CSV gets a `person` column.
    public var knownFolder: String?
    /// The CSV to write; "-" is standard output.
    public var csv: String
    /// The 468 face-mesh points of each face as CSV (`--landmarks`).
    public var landmarks: String?
    /// Cores one detection may use (images are detected one after another); 0 means every core.
    public var threads: Int
    /// Told, before an image's work starts, what will be slow (a huge picture): the tool prints it as a warning.
    package var notice: (@Sendable (String) -> Void)?

    /// Creates a job with the defaults of `facetrack detect`.
    public init(images: [String], detection: DetectionSettings = DetectionSettings(), attributes: AttributeSelection = [],
                knownFolder: String? = nil, csv: String = "-", landmarks: String? = nil, threads: Int = 0) {
        self.images = images
        self.detection = detection
        self.attributes = attributes
        self.knownFolder = knownFolder
        self.csv = csv
        self.landmarks = landmarks
        self.threads = threads
    }

    /// Runs the job: models and the `--known` photos are read first (a bad photo throws
    /// `KnownPeopleError`), the outputs are opened (refused when they name an input), then each
    /// image is read and its rows written. An image that cannot be read goes to `failed` and is
    /// skipped; the outputs are completed either way.
    public func run(failed: (_ image: String, _ error: Error) -> Void) throws -> StillImageSummary {
        let cores = threads > 0 ? threads : max(1, ProcessInfo.processInfo.activeProcessorCount)
        let detector = try detection.makeDetector(threads: cores).map { StillImageDetection(detector: $0, kind: detection.detector) }
        let analyzer = attributes.isEmpty && landmarks == nil
            ? nil : try FaceMeshAnalyzer(models: detection.models, selection: attributes)
        let stabilizer = attributes.isEmpty ? nil : AttributeStabilizer()
        // Known people: each face named on its own (one picture, so KnownPeople's 0.5 for single pictures).
        let naming = try knownFolder.map { folder in
            let model = try IdentityModels(models: detection.models)
            let known = try KnownPeopleLoader.load(folder: folder, detection: detection, model: model, threshold: 0.5)
            known.poorPhotoNotices.forEach { notice?($0) }
            return (known: known, embedder: try IdentityEmbedder(models: model))
        }
        // The images and the known photos are inputs: no output may name one.
        let inputs = images + (naming?.known.photos ?? [])
        let writer = try TrackCSVWriter(path: csv, inputs: inputs, includesImage: true, includesPerson: naming != nil)
        let meshPoints = try landmarks.map { try LandmarkCSVWriter(path: $0, inputs: inputs, includesImage: true) }
        let filter = DetectionFilter(maxFaces: detection.maxFaces)
        var summary = StillImageSummary()
        for path in images {
            do {
                let image = try ImageLoader.load(path: path).image
                if image.width * image.height >= FaceTrackJob.largePicture {
                    notice?("\(path): a \(image.width) x \(image.height) picture (\(image.width * image.height / 1_000_000) MP): "
                            + "detecting in full-resolution tiles takes a while")
                }
                var faces = try detector?.faces(in: image) ?? []
                _ = try filter.keep(&faces, frame: 0, detector: detection.detector.name)
                try analyzer?.analyze(&faces, in: image)
                // Untracked faces: the stabilizer decides each from its own scores.
                var rows = faces.map { TrackedFace(observation: $0, trackID: nil) }
                stabilizer?.process(&rows, frame: 0)
                if let naming {
                    for i in rows.indices {
                        rows[i].person = naming.embedder.embedding(of: rows[i].observation, in: image)
                            .flatMap { naming.known.match($0)?.name }
                    }
                }
                try writer.write(frame: 0, time: 0, faces: rows, image: path)
                try meshPoints?.write(frame: 0, faces: rows, image: path)
                summary.images += 1
                summary.faces += rows.count
            } catch {
                failed(path, error)
                summary.failed += 1
            }
        }
        try writer.finish()
        try meshPoints?.finish()
        return summary
    }
}

/// What a `StillImageJob` did.
public struct StillImageSummary: Sendable, Equatable {
    /// Images read and written.
    public var images = 0
    /// Faces written.
    public var faces = 0
    /// Images that could not be read (reported and skipped).
    public var failed = 0
}

/// What `facetrack find` does: where the person of one photo appears in videos. Faces are tracked
/// as `process` tracks them and each track is compared with the photo through face embeddings (a
/// few per track); the frames of matching tracks form time ranges, gaps up to one second bridged.
public struct PersonSearch: Sendable {
    /// The detector (and its settings) for the photo and the videos.
    public let detection: DetectionSettings
    /// Largest distance from a track's embeddings to the photo that counts as the person.
    public let matchThreshold: Double
    /// Warnings about the photo (a face too small or soft to compare reliably), one line each.
    public let notices: [String]
    private let person: KnownPeople

    /// Reads the person from `photo`, which must show exactly one face; a photo without one, with
    /// several or that cannot be read throws `KnownPeopleError` naming it.
    public init(photo: String, detection: DetectionSettings = DetectionSettings(),
                matchThreshold: Double = IdentitySettings().knownThreshold) throws {
        self.detection = detection
        self.matchThreshold = matchThreshold
        let model = try IdentityModels(models: detection.models)
        person = try KnownPeopleLoader.load(photo: photo, name: "face", detection: detection, model: model,
                                            threshold: matchThreshold)
        notices = person.poorPhotos.map { $0.notice(consequence: "the person may be missed") }
    }

    /// The time ranges where the person appears in `video`, in order. Reads the video once and
    /// writes nothing; a video that cannot be read throws as `FaceTrackJob.run` does.
    public func appearances(in video: String) throws -> [AppearanceRange] {
        var job = FaceTrackJob(input: video, detection: detection)
        job.identity.knownThreshold = matchThreshold
        return try job.findAppearances(of: person).ranges
    }
}
