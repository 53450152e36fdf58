import Identity

/// Who is who across a video (`--no-reid`, `--reid-threshold`, `--reid-window`, `--known`,
/// `--keep`, `--only`): re-identification of faces that leave and come back or cross a shot cut,
/// known people named from photos, and anonymisation that spares (or hits) only named people.
public struct IdentitySettings: Sendable, Equatable {
    /// Continue an earlier track's ID when its face comes back (after a gap or a cut) and split a
    /// track whose face turns into someone else's (`--no-reid` turns it off).
    public var reidentify: Bool
    /// Largest embedding distance at which a new track continues an earlier one (`--reid-threshold`).
    public var reidThreshold: Double
    /// Seconds an ended track stays a candidate; nil for the whole video (`--reid-window`).
    public var reidWindow: Double?
    /// A folder of known people's photos (`--known`): `NAME.jpg|png` or `NAME/*.jpg|png`.
    public var knownFolder: String?
    /// Largest distance from a track's gallery centroid to a known person's photo that still names
    /// the track (with `KnownPeople.match`'s margin of 0.08 over anyone else). 0.45, stricter than
    /// `KnownPeople`'s 0.5 for single pictures: chosen for the joined embedding on the identity
    /// corpus's tune half, 0.05 (the continuation margin) under the nearest a stranger's gallery came
    /// to a known still there (0.502, 15 sequences). There it names 0.964 of the known frames of the
    /// 6 extra sequences where 0.42 named 0.927, and no more strangers' frames than 0.42 did
    /// (docs/identity.md, "The names' threshold for the joined embedding").
    public var knownThreshold: Double
    /// With `--anonymize`: the people left unmasked (`--keep`); everyone else is masked,
    /// uncertain faces included (fail safe).
    public var keep: [String]
    /// With `--anonymize`: the only people masked (`--only`).
    public var only: [String]

    /// The defaults of `facetrack process`: re-identification on, threshold 0.4, whole video,
    /// no known people.
    public init(reidentify: Bool = true, reidThreshold: Double = 0.4, reidWindow: Double? = nil,
                knownFolder: String? = nil, knownThreshold: Double = 0.45, keep: [String] = [], only: [String] = []) {
        self.reidentify = reidentify
        self.reidThreshold = reidThreshold
        self.reidWindow = reidWindow
        self.knownFolder = knownFolder
        self.knownThreshold = knownThreshold
        self.keep = keep
        self.only = only
    }

    /// True when embeddings have to be computed at all.
    var needsEmbeddings: Bool { reidentify || knownFolder != nil }

    /// Checks the settings that need no photo.
    func validate() throws(JobSettingsError) {
        if !(reidThreshold.isFinite && reidThreshold > 0) {
            throw JobSettingsError(setting: "re-identification threshold (--reid-threshold)", expected: "a positive distance")
        }
        if let window = reidWindow, !(window.isFinite && window >= 0) {
            throw JobSettingsError(setting: "re-identification window (--reid-window)", expected: "0 or more seconds")
        }
        if !keep.isEmpty && !only.isEmpty {
            throw JobSettingsError(setting: "people (--keep and --only)", expected: "one of the two, not both")
        }
        if (!keep.isEmpty || !only.isEmpty) && knownFolder == nil {
            throw JobSettingsError(setting: "people (--keep/--only)", expected: "--known DIR naming them")
        }
    }

    /// Checks that `--keep`/`--only` name people of `known`.
    package func validateNames(known: KnownPeople?) throws(JobSettingsError) {
        let names = Set(known?.names ?? [])
        for name in keep + only where !names.contains(name) {
            throw JobSettingsError(setting: "person '\(name)' (--\(keep.isEmpty ? "only" : "keep"))",
                                   expected: "a name from --known: " + (known?.names ?? []).joined(separator: ", "))
        }
    }
}
