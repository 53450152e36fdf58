import FaceCore

/// Everything the overlay renderer draws, as chosen on the command line.
public struct OverlayConfiguration: Sendable {
    /// Overlays drawn on each face (`--overlay`, default `boxes,eyes`).
    public var kinds: Set<OverlayKind>
    /// Box colour for every face (`--box-color`); `nil` means red, green when smiling.
    public var boxColor: RenderColor?
    /// Drawn centred on each eye instead of the magenta square when set (`--eye-sprite`).
    public var eyeSprite: Sprite?
    /// How faces are hidden (`--anonymize`); `nil` leaves them visible.
    public var anonymize: AnonymizeMode?
    /// Size of the anonymisation ellipse relative to the face box, applied to its width and height
    /// about its centre (`--mask-scale`, default 1.3). A scale that is not finite and positive is
    /// replaced by the default when drawing, so a bad value never leaves a face visible.
    public var maskScale: Double
    /// Colour of the `fill` anonymisation (`--fill-color`, default black).
    public var fillColor: RenderColor
    /// Shape of the mask inside its box (`--mask-shape`, default ellipse); `image` masks take the
    /// picture's alpha instead.
    public var maskShape: MaskShape
    /// The picture of `--anonymize image:FILE`.
    public var maskImage: MaskImage?
    /// Draws the key of a visual diff's colours in the top-left corner of every frame.
    package var legend = false

    /// The default `maskScale`.
    public static let defaultMaskScale = 1.3

    /// The mask scales `parseMaskScale` accepts.
    public static let maskScaleRange: ClosedRange<Double> = 0.1...10

    /// Creates a configuration; the defaults draw boxes and eye squares and hide nothing.
    public init(kinds: Set<OverlayKind> = OverlayKind.defaultSet, boxColor: RenderColor? = nil,
                eyeSprite: Sprite? = nil, anonymize: AnonymizeMode? = nil, maskScale: Double = defaultMaskScale,
                fillColor: RenderColor = .black, maskShape: MaskShape = .ellipse, maskImage: MaskImage? = nil) {
        self.kinds = kinds
        self.boxColor = boxColor
        self.eyeSprite = eyeSprite
        self.anonymize = anonymize
        self.maskScale = maskScale
        self.fillColor = fillColor
        self.maskShape = maskShape
        self.maskImage = maskImage
    }

    /// The shape `facetrack eval` counts for these masks: an image mask as its whole box (the
    /// picture's transparent pixels hide nothing, so this is an upper bound).
    public var countedMaskShape: MaskShape { anonymize == .image ? .box : maskShape }

    /// Reads a `--mask-shape` value, case-insensitive.
    public static func parseMaskShape(_ text: String) throws(RenderingError) -> MaskShape {
        guard let shape = MaskShape(rawValue: Substring(text).trimmingSpaces().lowercased()) else {
            throw .unknownMaskShape(text)
        }
        return shape
    }

    /// Reads a `--mask-scale` value: a number in `maskScaleRange`.
    public static func parseMaskScale(_ text: String) throws(RenderingError) -> Double {
        guard let value = Double(Substring(text).trimmingSpaces()), maskScaleRange.contains(value) else {
            throw .badMaskScale(text)
        }
        return value
    }
}
