import FaceCore

/// What can go wrong when overlay options are parsed. Each description is one line naming the
/// option and the problem, ready for the command line.
public enum RenderingError: Error, CustomStringConvertible, Equatable {
    /// An `--overlay` list named something that is not an overlay.
    case unknownOverlay(String)
    /// A colour (for `--box-color` or a fill colour) could not be read.
    case badColor(String)
    /// An `--anonymize` value that is not a mode.
    case unknownAnonymizeMode(String)
    /// `--anonymize image` or `image:` without a file name.
    case imageWithoutFile(String)
    /// A `--mask-shape` that is not a shape.
    case unknownMaskShape(String)
    /// A `--mask-scale` that is not a finite number in the allowed range.
    case badMaskScale(String)
    /// An eye sprite image with no pixels.
    case emptySprite

    /// One line naming the option and the problem.
    public var description: String {
        switch self {
        case .unknownOverlay(let name):
            return "--overlay: unknown overlay '\(name)' (valid: \(OverlayKind.validNames.joined(separator: ", ")))"
        case .badColor(let text):
            return "--box-color: \(RenderingError.unreadableColor(text))"
        case .unknownAnonymizeMode(let name):
            return "--anonymize: unknown mode '\(name)' (valid: "
                + "\(AnonymizeMode.validValues.joined(separator: ", ")))"
        case .imageWithoutFile(let text):
            return "--anonymize: '\(text)' names no picture (use image:FILE, e.g. image:emoji.png)"
        case .unknownMaskShape(let name):
            return "--mask-shape: unknown shape '\(name)' (valid: \(MaskShape.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .badMaskScale(let text):
            return "--mask-scale: '\(text)' is not a number between \(OverlayConfiguration.maskScaleRange.lowerBound) "
                + "and \(OverlayConfiguration.maskScaleRange.upperBound)"
        case .emptySprite:
            return "--eye-sprite: the sprite image has no pixels"
        }
    }

    /// The problem with a colour value, without the option's name.
    public static func unreadableColor(_ text: String) -> String {
        "cannot read colour '\(text)' (use a name such as \(RenderColor.namedColors.map(\.name).joined(separator: ", ")), or #RRGGBB)"
    }
}
