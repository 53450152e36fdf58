import FaceCore
import FaceTrack
import Foundation

/// `facetrack find --face PHOTO VIDEO...`: where one person appears in each video, from the same
/// face embeddings as re-identification: tracks whose gallery lies within the match threshold of
/// the photo, merged into time ranges (gaps up to one second bridged).
///
/// Output: one JSON line per video on standard output (or `-o FILE`), the machine-readable part;
/// a readable table on standard error (not with `--quiet`), so piping the JSON stays clean.
enum FindCommand: Command {
    static let name = "find"
    static let synopsis = "find --face PHOTO VIDEO..."
    static let summary = "time ranges where the person in PHOTO appears (JSON Lines)"
    static let startsWorkers = true
    static let face = Option.text("--face", "PHOTO", help: "a photo showing the person, one face only")
    static let output = Option.output("--output", short: "-o", "FILE", help: "write the JSON Lines to FILE instead of standard output")
    static let matchThreshold = Option<Double>.number(
        "--match-threshold", in: 0.05...2,
        help: "largest distance from a track's embeddings to the photo that counts as the person (default \(IdentitySettings().knownThreshold))")
    static let options = [face.spec, output.spec, matchThreshold.spec] + DetectorOptions.options
        + [CommonFlags.quiet.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack find --face PHOTO VIDEO... [-o FILE] [options]

        Finds the time ranges where the person in PHOTO appears in each VIDEO. Faces are tracked and
        each track compared with the photo through its face embeddings (dlib's and SFace's, a few per
        track); frames of matching tracks form ranges, gaps up to one second bridged.

        Standard output (or -o FILE) gets one JSON line per video:
          {"ranges":[{"distance":0.23,"end":4.84,"frames":91,"start":1.2}],"video":"a.mp4"}
        (seconds; distance is the closest match in the range, lower is surer). Standard error gets
        the same as a table, unless --quiet. A video that cannot be read is reported and skipped
        (exit 1); when no video can be read, an existing -o file is left as it was. A photo without
        exactly one face is refused before any video (exit 2); one whose face is too
        small or soft to compare reliably is used, with a warning.

        OPTIONS:
        \(options.map(\.helpEntry).joined(separator: "\n"))

        EXAMPLES:
          facetrack find --face alice.jpg interview.mp4 party.mp4
          facetrack find --face alice.jpg footage/*.mp4 -o alice.jsonl --quiet
        """
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let photo = try arguments.value(face) else { throw UsageError("find needs --face PHOTO") }
        guard !arguments.positionals.isEmpty else { throw UsageError("find needs at least one VIDEO") }
        let quiet = arguments.isSet(CommonFlags.quiet)
        let search: PersonSearch
        do {
            search = try PersonSearch(photo: photo, detection: try DetectorOptions(arguments).settings,
                                      matchThreshold: try arguments.value(matchThreshold) ?? IdentitySettings().knownThreshold)
        } catch let error as KnownPeopleError {
            // Worded for --face: the photo is not a --known folder's.
            switch error {
            case .noFace(let path): throw InputRefused(description: "\(path): no face found in the --face photo")
            case let .severalFaces(path, count):
                throw InputRefused(description: "\(path): \(count) faces in the --face photo (it must show exactly one)")
            case let .unreadablePhoto(path, reason):
                throw InputRefused(description: "--face: " + (reason.hasPrefix(path) ? reason : "\(path): \(reason)"))
            default: throw InputRefused(description: error.description)
            }
        }
        search.notices.forEach { Console.warn($0) }
        let outputPath = try arguments.value(output)
        let file = try BufferedTextFile(path: outputPath ?? "-", inputs: arguments.positionals + [photo])
        var failures = 0
        var table = ["video                            start      end   frames  distance"]
        for video in arguments.positionals {
            do {
                let ranges = try search.appearances(in: video)
                try file.write(try JSONOutput.string(FoundLine(video: video, ranges: ranges)) + "\n")
                table += ranges.isEmpty ? ["\(pad(video, 30))  (not found)"]
                    : ranges.map { r in
                        "\(pad(video, 30)) " + String(format: "%8.2f %8.2f %8d %9.3f", r.start, r.end, r.frames, r.bestDistance)
                    }
            } catch {
                Console.error(error)
                failures += 1
            }
        }
        // A run where no video could be read leaves an existing -o file as it was (the unfinished
        // temporary file is deleted); one with results writes them, and exits 1 for the rest.
        if failures < arguments.positionals.count || outputPath == nil { try file.finish() }
        if !quiet {
            Console.standardError(table.map(Console.escapingControls).joined(separator: "\n") + "\n")
        }
        return failures == 0 ? 0 : 1
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// One video's line of `find`'s output: its path and its ranges, times in seconds to the
/// millisecond, distances to three decimals.
struct FoundLine: Encodable {
    struct Range: Encodable {
        let start: JSONNumber, end: JSONNumber, frames: Int, distance: JSONNumber
    }

    let video: String
    let ranges: [Range]

    init(video: String, ranges: [AppearanceRange]) {
        self.video = video
        self.ranges = ranges.map {
            Range(start: JSONNumber($0.start, decimals: 3), end: JSONNumber($0.end, decimals: 3), frames: $0.frames,
                  distance: JSONNumber(Double($0.bestDistance), decimals: 3))
        }
    }
}
