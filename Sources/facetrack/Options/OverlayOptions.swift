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
    static let anonymize = Option("--anonymize", "MODE",
                                  help: "hide faces: blur, pixelate, fill or image:FILE (a picture such as an emoji PNG\n"
                                      + "scaled over each mask box, alpha kept); predicted faces included") {
        try AnonymizeMode.parse($0)
    }
    static let maskScale = Option("--mask-scale", "X",
                                  help: "size of the anonymisation mask relative to the face box (default 1.3)") {
        try OverlayConfiguration.parseMaskScale($0)
    }
    static let maskShape = Option("--mask-shape", "SHAPE",
                                  help: "shape of the mask: ellipse (default) or box (the whole scaled face box)") {
        try OverlayConfiguration.parseMaskShape($0)
    }
    static let fillColor = Option("--fill-color", "COLOR", help: "colour of --anonymize fill: a name or #RRGGBB (default black)") {
        text throws -> RenderColor in
        do {
            return try RenderColor(parsing: text)
        } catch {
            throw UsageError("--fill-color: " + RenderingError.unreadableColor(text))
        }
    }

    static let options = [overlay.spec, boxColor.spec, eyeSprite.spec, anonymize.spec, maskScale.spec, maskShape.spec,
                          fillColor.spec]

    let configuration: OverlayConfiguration

    /// The longest side an --eye-sprite picture keeps.
    static let largestSprite = 512

    init(_ arguments: ParsedArguments) throws {
        var configuration = OverlayConfiguration()
        if let kinds = try arguments.value(Self.overlay) { configuration.kinds = kinds }
        configuration.boxColor = try arguments.value(Self.boxColor)
        let anonymize = try arguments.value(Self.anonymize)
        configuration.anonymize = anonymize?.mode
        if let scale = try arguments.value(Self.maskScale) { configuration.maskScale = scale }
        if let shape = try arguments.value(Self.maskShape) {
            guard anonymize?.mode != .image else {
                throw UsageError("--mask-shape: an image:FILE mask has the picture's own shape (its alpha); drop --mask-shape")
            }
            configuration.maskShape = shape
        }
        if let color = try arguments.value(Self.fillColor) {
            guard anonymize?.mode == .fill else { throw UsageError("--fill-color: only --anonymize fill paints a colour") }
            configuration.fillColor = color
        }
        if let sprite = try arguments.value(Self.eyeSprite) {
            if let builtIn = Sprite.builtIn(named: sprite) {
                configuration.eyeSprite = builtIn
            } else {
                let image = try Self.loadPicture(sprite, option: "--eye-sprite", stillOnly: false)
                do {
                    configuration.eyeSprite = try Sprite(image: image)
                } catch {
                    throw UsageError("\(sprite): \(error)")
                }
            }
        }
        if let file = anonymize?.imageFile {
            // Loaded, scaled down and halved once here; frames only blend it.
            let image = try Self.loadPicture(file, option: "--anonymize", stillOnly: true)
            do {
                configuration.maskImage = try MaskImage(image: image)
            } catch {
                throw PictureFileError(option: "--anonymize", path: file, problem: "the picture has no pixels")
            }
        }
        self.configuration = configuration
    }

    /// Decodes a picture option's file. Errors name the option; a huge picture is scaled down as
    /// it loads (a sprite covers an eye, a mask picture a face: never more than a few hundred
    /// pixels are needed).
    private static func loadPicture(_ path: String, option: String, stillOnly: Bool) throws -> BGRAImage {
        do {
            return try ImageLoader.load(path: path, maxSide: largestSprite, stillOnly: stillOnly).image
        } catch {
            throw PictureFileError(option: option, path: path, problem: "\(error)")
        }
    }

    /// The pictures these options read, so that no output may name them.
    static func readFiles(_ arguments: ParsedArguments) throws -> [ReadFile] {
        var files: [ReadFile] = []
        if let sprite = try arguments.value(eyeSprite), Sprite.builtIn(named: sprite) == nil {
            files.append(ReadFile(path: sprite, role: "the --eye-sprite picture"))
        }
        if let file = try arguments.value(anonymize)?.imageFile {
            files.append(ReadFile(path: file, role: "the --anonymize picture"))
        }
        return files
    }
}

/// A picture file (--eye-sprite, --anonymize image:FILE) that cannot be used (exit 1, like any
/// unreadable input), naming the option.
struct PictureFileError: Error, CustomStringConvertible {
    let option: String
    let path: String
    let problem: String
    var description: String { "\(option): " + (problem.hasPrefix(path) ? problem : "\(path): \(problem)") }
}
