import FaceTrack
import Foundation

/// `facetrack detect IMAGE... [--csv FILE]`: faces in still images, as CSV rows with an `image` column.
enum DetectCommand {
    static let help = """
    USAGE: facetrack detect IMAGE... [--csv FILE] [options]

    Finds faces in still images (jpg, png and anything FFmpeg decodes; EXIF orientation applied)
    and writes one CSV row per face, with a leading image column. Without --csv the CSV goes to
    standard output.

    OPTIONS:
      --csv FILE            write the CSV to FILE instead of standard output
    \(DetectorOptions.help)
      -h, --help            show this help

    EXAMPLES:
      facetrack detect photo.jpg
      facetrack detect shots/*.png --csv faces.csv --min-face-size 40
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try Arguments(raw, valued: DetectorOptions.valued.union(["--csv"]), flags: ["--help"],
                                      aliases: ["-h": "--help"])
        if arguments.has("--help") { print(help); return 0 }
        guard !arguments.positionals.isEmpty else { throw UsageError("detect needs at least one IMAGE") }
        let options = try DetectorOptions(arguments)
        let detector = try options.makeDetector()
        let writer = try TrackCSVWriter(path: arguments.string("--csv") ?? "-", inputs: arguments.positionals,
                                        includesImage: true)
        var failures = 0
        for path in arguments.positionals {
            do {
                let (image, _) = try ImageLoader.load(path: path)
                var faces = try detector?.detect(in: image) ?? []
                faces.removeAll { !$0.isValid }
                faces.sort { $0.confidence > $1.confidence }
                if let limit = options.maxFaces { faces = Array(faces.prefix(limit)) }
                try writer.write(frame: 0, time: 0, faces: faces.map { TrackedFace(observation: $0, trackID: nil) }, image: path)
            } catch {
                Console.error(error)
                failures += 1
            }
        }
        try writer.finish()
        return failures == 0 ? 0 : 1
    }
}
