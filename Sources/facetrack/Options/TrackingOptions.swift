import FaceTrack

/// The tracker options of `process` and `batch`.
struct TrackingOptions: OptionGroup {
    static let detectEvery = Option<Int>.number(
        "--detect-every", in: 1...10_000,
        help: "run the detector on every Nth frame only; the tracker predicts the rest (default 1)")
    static let minHits = Option<Int>.number("--min-hits", in: 1...1000,
                                            help: "detections in a row before a face gets a track ID (default 3)")
    static let maxAge = Option<Int>.number("--max-age", in: 1...100_000,
                                           help: "frames a lost face keeps its ID (default: one second of video)")
    static let trackThreshold = Option<Double>.number(
        "--track-threshold", in: 0...1,
        help: "confidence a face needs to start a track, at least --threshold (default: 0.5 for centerface,\n"
            + "--threshold for the others)")
    static let maskThreshold = Option<Double>.number(
        "--mask-threshold", in: 0...1,
        help: "with --anonymize: confidence a face needs to be masked, at most --threshold; faces masked\n"
            + "only because of it are listed as tentative (default: half of --threshold)")
    static let noSmooth = Flag("--no-smooth", help: "draw the measured boxes instead of smoothed ones")
    static let noSecondPass = Flag("--no-second-pass",
                                   help: "do not match low-confidence detections to lost tracks (ByteTrack's second pass)")

    static let options = [detectEvery.spec, minHits.spec, maxAge.spec, trackThreshold.spec, maskThreshold.spec, noSmooth.spec, noSecondPass.spec]

    let settings: TrackingSettings
    let detectEvery: Int

    init(_ arguments: ParsedArguments) throws {
        detectEvery = try arguments.value(Self.detectEvery) ?? 1
        settings = TrackingSettings(minHits: try arguments.value(Self.minHits) ?? 3, maxAge: try arguments.value(Self.maxAge),
                                    smoothing: !arguments.isSet(Self.noSmooth),
                                    secondPass: !arguments.isSet(Self.noSecondPass),
                                    trackThreshold: try arguments.value(Self.trackThreshold),
                                    maskThreshold: try arguments.value(Self.maskThreshold))
    }
}
