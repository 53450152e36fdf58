/// An opaque 8-bit colour for overlays, stored in the frame's byte order.
public struct RenderColor: Sendable, Equatable, Hashable {
    /// Blue.
    public var b: UInt8
    /// Green.
    public var g: UInt8
    /// Red.
    public var r: UInt8

    /// Creates a colour from its red, green and blue components.
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Box colour for faces that do not smile.
    public static let red = RenderColor(r: 255, g: 0, b: 0)
    /// Box colour for smiling faces.
    public static let green = RenderColor(r: 0, g: 255, b: 0)
    /// Eye marker colour.
    public static let magenta = RenderColor(r: 255, g: 0, b: 255)
    /// Mouth marker colour.
    public static let cyan = RenderColor(r: 0, g: 255, b: 255)
    /// Default anonymisation fill.
    public static let black = RenderColor(r: 0, g: 0, b: 0)
    /// Label text.
    public static let white = RenderColor(r: 255, g: 255, b: 255)

    /// The names `init(parsing:)` understands.
    public static let namedColors: [(name: String, color: RenderColor)] = [
        ("red", .red), ("green", .green), ("blue", RenderColor(r: 0, g: 0, b: 255)),
        ("yellow", RenderColor(r: 255, g: 255, b: 0)), ("cyan", .cyan), ("magenta", .magenta),
        ("orange", RenderColor(r: 255, g: 165, b: 0)), ("white", .white), ("black", .black),
        ("gray", RenderColor(r: 128, g: 128, b: 128)),
    ]

    /// Reads a colour name (`red`, `green`, … see `namedColors`, case-insensitive) or a hex triple
    /// `#RRGGBB` / `RRGGBB`.
    public init(parsing text: String) throws(RenderingError) {
        let trimmed = Substring(text).trimmingSpaces().lowercased()
        if let named = RenderColor.namedColors.first(where: { $0.name == trimmed }) {
            self = named.color
            return
        }
        let hex = trimmed.hasPrefix("#") ? trimmed.dropFirst() : Substring(trimmed)
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else {
            throw .badColor(text)
        }
        self.init(r: UInt8(value >> 16), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
    }
}
