import FaceTrack
import Identity

/// Every option that shapes a `FaceTrackJob` except its input and output names: what `process`
/// and `batch` share. Parsed once into a job template.
struct JobOptions {
    /// The groups, in help order.
    static let groups: [(title: String, options: [OptionSpec])] = [
        ("DETECTION", DetectorOptions.options),
        ("ATTRIBUTES", AttributeOptions.options),
        ("TRACKING", TrackingOptions.options),
        ("IDENTITY", IdentityOptions.options),
        ("OVERLAYS", OverlayOptions.options),
        ("ENCODING", EncoderOptions.options),
    ]

    /// Every option of the groups.
    static var options: [OptionSpec] { groups.flatMap(\.options) }

    /// The groups' help, a heading per group, without the options in `excluded`.
    static func help(excluding excluded: Set<OptionSpec> = []) -> String {
        groups.map { group in
            "\(group.title):\n" + group.options.filter { !excluded.contains($0) }.map(\.helpEntry).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// The job with every setting but the input and outputs.
    private(set) var template: FaceTrackJob
    /// Warnings for the run, one line each: fast mode with anonymisation, a known photo whose face
    /// is too small or soft to compare reliably.
    let warnings: [String]

    /// Whether `--threads` was given.
    let threadsGiven: Bool

    init(_ arguments: ParsedArguments) throws {
        var detection = try DetectorOptions(arguments).settings
        let tracking = try TrackingOptions(arguments)
        detection.detectEvery = tracking.detectEvery
        let encoder = try EncoderOptions(arguments)
        template = FaceTrackJob(input: "", detection: detection, tracking: tracking.settings,
                                overlay: try OverlayOptions(arguments).configuration,
                                attributes: try AttributeOptions(arguments).selection,
                                encoder: encoder.settings, threads: encoder.threads ?? 0)
        template.identity = try IdentityOptions(arguments).settings
        // Files read besides the input: no output may name them.
        template.readFiles += try OverlayOptions.readFiles(arguments)
        if let cascade = try arguments.value(DetectorOptions.cascade) {
            template.readFiles.append(ReadFile(path: cascade, role: "the --cascade file"))
        }
        threadsGiven = encoder.threads != nil
        // Measured on the reference clips with truth (README, anonymisation).
        let fastMasks = try arguments.value(DetectorOptions.accuracy) == .low && template.overlay.anonymize != nil
            ? "fast mode (--accuracy low) misses small faces and --anonymize leaves them unmasked: it masked 48 % "
                + "of the reference clips' faces, the default mode 100 % (README, Anonymisation)" : nil
        do {
            try template.validate()
        } catch {
            throw UsageError(error.description)
        }
        // The known people's photos, before any video is read: a bad photo is bad input (exit 2).
        do {
            try template.loadKnownPeople()
        } catch let error as JobSettingsError {
            throw UsageError(error.description)
        } catch let error as KnownPeopleError {
            throw InputRefused(description: error.description)
        }
        warnings = [fastMasks].compactMap { $0 } + (template.knownPeople?.poorPhotoNotices ?? [])
    }

    /// The job for one input.
    func job(input: String, outputs: JobOutputs) -> FaceTrackJob {
        var job = template
        job.input = input
        job.outputs = outputs
        return job
    }
}
