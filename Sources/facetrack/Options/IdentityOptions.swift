import FaceTrack

/// The identity options of `process` and `batch`: re-identification, known people and who
/// `--anonymize` spares. The `--known` photos are read when the job starts, before any video.
struct IdentityOptions: OptionGroup {
    static let reid = Flag("--reid",
                           help: "continue a track's ID when its face comes back after a gap or a shot cut "
                               + "(the default, except with --accuracy low)")
    static let noReid = Flag("--no-reid",
                             help: "do not continue a track's ID when its face comes back after a gap or a shot cut")
    static let reidThreshold = Option<Double>.number(
        "--reid-threshold", in: 0.05...2,
        help: "largest face-embedding distance at which a returning face keeps its ID (default 0.4; "
            + "0.05 more when every other candidate is 0.11 farther)")
    static let reidWindow = Option<Double>.number(
        "--reid-window", "SECONDS", in: 0...1e9,
        help: "seconds a lost face stays a candidate for re-identification (default: the whole video)")
    static let known = Option.text(
        "--known", "DIR",
        help: "name known people: DIR/NAME.jpg|png (one face each) or DIR/NAME/*.jpg; adds a person column")
    static let keep = Option("--keep", "NAME[,NAME...]",
                             help: "with --anonymize: mask everyone except these known people (uncertain faces masked)") {
        try IdentityOptions.names($0)
    }
    static let only = Option("--only", "NAME[,NAME...]", help: "with --anonymize: mask only these known people") {
        try IdentityOptions.names($0)
    }

    static let options = [reid.spec, noReid.spec, reidThreshold.spec, reidWindow.spec, known.spec, keep.spec, only.spec]

    let settings: IdentitySettings

    init(_ arguments: ParsedArguments) throws {
        var settings = IdentitySettings()
        if arguments.isSet(Self.reid) && arguments.isSet(Self.noReid) {
            throw UsageError("--reid and --no-reid contradict each other: give one")
        }
        // Fast mode leaves the embedding model out (loading it and embedding on the serial
        // tracking stage is a large share of a fast run: docs/identity.md); --reid brings it back.
        let fast = try arguments.value(DetectorOptions.accuracy) == .low
        settings.reidentify = arguments.isSet(Self.reid) || (!fast && !arguments.isSet(Self.noReid))
        if let threshold = try arguments.value(Self.reidThreshold) { settings.reidThreshold = threshold }
        settings.reidWindow = try arguments.value(Self.reidWindow)
        settings.knownFolder = try arguments.value(Self.known)
        settings.keep = try arguments.value(Self.keep) ?? []
        settings.only = try arguments.value(Self.only) ?? []
        self.settings = settings
    }

    /// A comma-separated list of names.
    static func names(_ text: String) throws -> [String] {
        let names = text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw InvalidValue(expected: "expected one or more names separated by commas") }
        return names
    }
}

/// Input refused before any work starts (a `--known` photo without a face): one line, exit 2.
struct InputRefused: Error, CustomStringConvertible {
    let description: String
}
