import Foundation

/// Which face attributes to measure (`--attributes smile,blink,angle` or `all`), like Core
/// Image's `CIDetectorSmile` and `CIDetectorEyeBlink` options.
public struct AttributeSelection: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a selection from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `has_smile`.
    public static let smile = AttributeSelection(rawValue: 1)
    /// `left_eye_closed` and `right_eye_closed`.
    public static let blink = AttributeSelection(rawValue: 2)
    /// `roll` and `yaw` from the mesh.
    public static let angle = AttributeSelection(rawValue: 4)
    /// Everything.
    public static let all: AttributeSelection = [.smile, .blink, .angle]

    /// The names `--attributes` accepts.
    public static let names = ["smile", "blink", "angle", "all"]

    /// Parses a comma-separated list of `names`; throws `AttributeError.unknownAttribute` for
    /// anything else and for an empty list.
    public init(parsing list: String) throws {
        var selection: AttributeSelection = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            switch item.trimmingCharacters(in: .whitespaces).lowercased() {
            case "smile": selection.insert(.smile)
            case "blink": selection.insert(.blink)
            case "angle": selection.insert(.angle)
            case "all": selection.formUnion(.all)
            default: throw AttributeError.unknownAttribute(String(item))
            }
        }
        guard !selection.isEmpty else { throw AttributeError.unknownAttribute(list) }
        self = selection
    }
}
