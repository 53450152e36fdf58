import FaceTrack

/// The overlay options of `process` and `batch`. Everything is checked (and a sprite file decoded)
/// before any frame is read.
struct OverlayOptions: OptionGroup {
    static let overlay = Option("--overlay", "LIST",
                                help: "what to draw: boxes, eyes, mouth, labels, all or none (default boxes,eyes)") {
        try OverlayKind.parseList($0)
    }
    static let boxColor = Option("--box-color", "COLOR",
                                 help: "box colour: a name (red, green, blue...) or #RRGGBB (default red, green when smiling)") {
        try RenderColor(parsing: $0)
    }
    static let eyeSprite = Option.text(
        "--eye-sprite", "FILE",
        help: "image drawn over each eye, scaled to the eye distance (PNG alpha kept); \"heart\" is built in")
    static let anonymize = Option("--anonymize", "MODE", help: "hide faces: blur, pixelate or fill (predicted faces included)") {
        try AnonymizeMode(parsing: $0)
    }
    static let maskScale = Option("--mask-scale", "X",
                                  help: "size of the anonymised ellipse relative to the face box (default 1.3)") {
        try OverlayConfiguration.parseMaskScale($0)
    }

    static let options = [overlay.spec, boxColor.spec, eyeSprite.spec, anonymize.spec, maskScale.spec]

    let configuration: OverlayConfiguration

    /// The longest side an --eye-sprite picture keeps.
    static let largestSprite = 512

    init(_ arguments: ParsedArguments) throws {
        var configuration = OverlayConfiguration()
        if let kinds = try arguments.value(Self.overlay) { configuration.kinds = kinds }
        configuration.boxColor = try arguments.value(Self.boxColor)
        configuration.anonymize = try arguments.value(Self.anonymize)
        if let scale = try arguments.value(Self.maskScale) { configuration.maskScale = scale }
        if let sprite = try arguments.value(Self.eyeSprite) {
            if let builtIn = Sprite.builtIn(named: sprite) {
                configuration.eyeSprite = builtIn
            } else {
                // Errors name the option; a huge picture is scaled down as it loads (a sprite
                // covers an eye, never more than a few hundred pixels).
                let image: BGRAImage
                do {
                    image = try ImageLoader.load(path: sprite, maxSide: OverlayOptions.largestSprite).image
                } catch {
                    throw SpriteFileError(path: sprite, problem: "\(error)")
                }
                do {
                    configuration.eyeSprite = try Sprite(image: image)
                } catch {
                    throw UsageError("\(sprite): \(error)")
                }
            }
        }
        self.configuration = configuration
    }
}

/// An --eye-sprite file that cannot be read (exit 1, like any unreadable input), naming the option.
struct SpriteFileError: Error, CustomStringConvertible {
    let path: String
    let problem: String
    var description: String { "--eye-sprite: " + (problem.hasPrefix(path) ? problem : "\(path): \(problem)") }
}
