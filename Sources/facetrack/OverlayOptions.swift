import FaceTrack

/// The overlay options of `process`, and the renderer they make. Everything is checked (and a
/// sprite file decoded) before any frame is read.
struct OverlayOptions {
    static let valued: Set<String> = ["--overlay", "--box-color", "--eye-sprite", "--anonymize", "--mask-scale"]
    static let help = """
      --overlay LIST        what to draw: boxes, eyes, mouth, labels, all or none (default boxes,eyes)
      --box-color COLOR     box colour: a name (red, green, blue...) or #RRGGBB (default red, green when smiling)
      --eye-sprite FILE     image drawn over each eye, scaled to the eye distance (PNG alpha kept); "heart" is built in
      --anonymize MODE      hide faces: blur, pixelate or fill (predicted faces included)
      --mask-scale X        size of the anonymised ellipse relative to the face box (default 1.3)
    """

    let configuration: OverlayConfiguration

    init(_ arguments: Arguments) throws {
        var configuration = OverlayConfiguration()
        do {
            if let list = arguments.string("--overlay") { configuration.kinds = try OverlayKind.parseList(list) }
            if let color = arguments.string("--box-color") { configuration.boxColor = try RenderColor(parsing: color) }
            if let mode = arguments.string("--anonymize") { configuration.anonymize = try AnonymizeMode(parsing: mode) }
            if let scale = arguments.string("--mask-scale") {
                configuration.maskScale = try OverlayConfiguration.parseMaskScale(scale)
            }
        } catch {
            throw UsageError("\(error)")
        }
        if let sprite = arguments.string("--eye-sprite") {
            if let builtIn = Sprite.builtIn(named: sprite) {
                configuration.eyeSprite = builtIn
            } else {
                let (image, _) = try ImageLoader.load(path: sprite)
                do {
                    configuration.eyeSprite = try Sprite(image: image)
                } catch {
                    throw UsageError("\(sprite): \(error)")
                }
            }
        }
        self.configuration = configuration
    }

    /// The renderer, or `nil` when there is nothing to draw.
    func makeRenderer() -> OverlayRenderer? {
        configuration.kinds.isEmpty && configuration.anonymize == nil ? nil : OverlayRenderer(configuration: configuration)
    }
}
