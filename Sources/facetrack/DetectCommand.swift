import FaceTrack

/// `facetrack detect IMAGE... [--csv FILE]`: faces in still images, as CSV rows with an `image` column.
enum DetectCommand: Command {
    static let name = "detect"
    static let synopsis = "detect IMAGE... [--csv FILE]"
    static let summary = "find faces in still images"
    static let startsWorkers = true
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

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard !arguments.positionals.isEmpty else { throw UsageError("detect needs at least one IMAGE") }
        var job = StillImageJob(images: arguments.positionals, detection: try DetectorOptions(arguments).settings,
                                attributes: try AttributeOptions(arguments).selection,
                                knownFolder: try arguments.value(IdentityOptions.known), csv: try arguments.value(csv) ?? "-",
                                landmarks: try arguments.value(OutputOptions.landmarks))
        job.notice = { Console.warn($0) }
        let summary: StillImageSummary
        do {
            summary = try job.run { _, error in Console.error(error) }
        } catch let error as KnownPeopleError {
            throw InputRefused(description: error.description)
        }
        return summary.failed == 0 ? 0 : 1
    }
}
