import FaceTrack
import Pipeline

/// `facetrack apply-edits TRACKS.csv EDITS.json -o OUT.csv`: a review's edits written into the tracks.
enum ApplyEditsCommand: Command {
    static let name = "apply-edits"
    static let synopsis = "apply-edits T.csv EDITS.json -o T2.csv"
    static let summary = "write the tracks with a review's edits (drop, keep, mask, rename, split, join)"

    static let output = Option.output("--output", short: "-o", "OUT", help: "the edited tracks file to write")
    static let options = [output.spec, CommonFlags.quiet.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack apply-edits TRACKS.csv EDITS.json -o OUT.csv

        Applies an edits file (the report page's "Download edits", or one written by hand or a script;
        schema in docs/edits.md) to a tracks file and writes the result in the same format: dropped
        tracks' rows go, split and joined tracks get their new IDs, and the person and mask columns
        (added at the end when missing) hold the names and the keep/mask choices. Every other field
        is written as it was read. `facetrack render --edits` applies the same edits on the fly.

        OPTIONS:
        \(options.map(\.helpEntry).joined(separator: "\n"))

        EXAMPLES:
          facetrack apply-edits clip.csv clip-edits.json -o clip-reviewed.csv
          facetrack render clip.mp4 --tracks clip-reviewed.csv -o clip-anon.mp4 --anonymize blur
        """
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard arguments.positionals.count == 2 else {
            throw UsageError("apply-edits takes a TRACKS file and an EDITS file (got \(arguments.positionals.count) files)")
        }
        guard let output = try arguments.value(Self.output) else { throw UsageError("apply-edits needs -o OUT") }
        let result = try EditedTracks.write(tracks: arguments.positionals[0], edits: arguments.positionals[1], output: output)
        if !arguments.isSet(CommonFlags.quiet) {
            Console.info("wrote \(output): \(result.rowsWritten) of \(result.rowsRead) rows, \(result.tracks) tracks")
        }
        return 0
    }
}
