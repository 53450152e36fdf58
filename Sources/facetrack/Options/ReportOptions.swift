/// The options of `facetrack report`.
struct ReportOptions: OptionGroup {
    static let video = Option.text("--video", "VIDEO",
                                   help: "the video the tracks come from: adds its resolution and face thumbnails (by seeking)")
    static let summary = Option.text("--summary", "FILE",
                                     help: "a JSON summary of the run (e.g. --tracks-summary's file): its figures go in the header")
    static let output = Option.output("--output", short: "-o", "OUT", help: "the HTML page to write")

    static let options = [video, summary, output].map(\.spec)

    /// The video, if given.
    let videoPath: String?
    /// The summary, if given.
    let summaryPath: String?
    /// The page to write.
    let outputPath: String

    init(_ arguments: ParsedArguments) throws {
        videoPath = try arguments.value(Self.video)
        summaryPath = try arguments.value(Self.summary)
        guard let output = try arguments.value(Self.output) else { throw UsageError("report needs -o OUT.html") }
        outputPath = output
    }
}
