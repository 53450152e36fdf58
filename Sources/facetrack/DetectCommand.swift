import FaceTrack
import Foundation
import Identity
import Pipeline

/// `facetrack detect IMAGE... [--csv FILE]`: faces in still images, as CSV rows with an `image` column.
enum DetectCommand {
    static let csv = Option.text("--csv", "FILE", help: "write the CSV to FILE instead of standard output")
    static let options = [csv.spec] + DetectorOptions.options + AttributeOptions.options
        + [OutputOptions.landmarks.spec, IdentityOptions.known.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack detect IMAGE... [--csv FILE] [options]

        Finds faces in still images (jpg, png and anything FFmpeg decodes; EXIF orientation applied)
        and writes one CSV row per face, with a leading image column. Without --csv the CSV goes to
        standard output. An image larger than the detector's input is also searched in
        full-resolution tiles, so small faces in large photos are found.

        OPTIONS:
        \(options.map(\.helpEntry).joined(separator: "\n"))

        EXAMPLES:
          facetrack detect photo.jpg
          facetrack detect shots/*.png --csv faces.csv --min-face-size 40
          facetrack detect portrait.jpg --attributes smile,blink
          facetrack detect team.jpg --known people/   (adds a person column)
        """
    }

    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: options)
        if arguments.isSet(CommonFlags.help) { print(help); return 0 }
        guard !arguments.positionals.isEmpty else { throw UsageError("detect needs at least one IMAGE") }
        let images = arguments.positionals
        let detection = try DetectorOptions(arguments).settings
        let attributes = try AttributeOptions(arguments).selection
        let landmarksPath = try arguments.value(OutputOptions.landmarks)
        // Images are detected one after another: let one detection use every core.
        let detector = try detection.makeDetector(threads: ProcessInfo.processInfo.activeProcessorCount)
            .map { StillImageDetection(detector: $0, kind: detection.detector) }
        let analyzer = attributes.isEmpty && landmarksPath == nil
            ? nil : try FaceMeshAnalyzer(models: detection.models, selection: attributes)
        let stabilizer = attributes.isEmpty ? nil : AttributeStabilizer()
        // Known people: each face named on its own (one picture, so KnownPeople's 0.5 for single pictures).
        var naming: (known: KnownPeople, embedder: FaceEmbedder)?
        if let folder = try arguments.value(IdentityOptions.known) {
            let model = try FaceEmbeddingModel(models: detection.models)
            do {
                naming = (try KnownPeopleLoader.load(folder: folder, detection: detection, model: model, threshold: 0.5),
                          try FaceEmbedder(model: model))
            } catch let error as KnownPeopleError {
                throw InputRefused(description: error.description)
            }
        }
        // The images and the known photos are inputs: no output may name one.
        let inputs = images + (naming?.known.photos ?? [])
        let writer = try TrackCSVWriter(path: try arguments.value(csv) ?? "-", inputs: inputs, includesImage: true,
                                        includesPerson: naming != nil)
        let landmarks = try landmarksPath.map { try LandmarkCSVWriter(path: $0, inputs: inputs, includesImage: true) }
        var failures = 0
        for path in images {
            do {
                let image = try ImageLoader.load(path: path).image
                if image.width * image.height >= FaceTrackJob.largePicture {
                    Console.warn("\(path): a \(image.width) x \(image.height) picture (\(image.width * image.height / 1_000_000) MP): "
                                 + "detecting in full-resolution tiles takes a while")
                }
                var faces = try detector?.faces(in: image) ?? []
                faces.removeAll { !$0.isValid }
                faces.sort { $0.confidence > $1.confidence }
                if let limit = detection.maxFaces { faces = Array(faces.prefix(limit)) }
                try analyzer?.analyze(&faces, in: image)
                // Untracked faces: the stabilizer decides each from its own scores.
                var tracked = faces.map { TrackedFace(observation: $0, trackID: nil) }
                stabilizer?.process(&tracked, frame: 0)
                if let naming {
                    for i in tracked.indices {
                        tracked[i].person = naming.embedder.embedding(of: tracked[i].observation, in: image)
                            .flatMap { naming.known.match($0)?.name }
                    }
                }
                try writer.write(frame: 0, time: 0, faces: tracked, image: path)
                try landmarks?.write(frame: 0, faces: tracked, image: path)
            } catch {
                Console.error(error)
                failures += 1
            }
        }
        try writer.finish()
        try landmarks?.finish()
        return failures == 0 ? 0 : 1
    }
}
