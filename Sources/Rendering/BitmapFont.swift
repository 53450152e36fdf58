import FaceCore
/// A 5 x 7 pixel font built into the program for labels: digits, `#`, `.`, `-`, `?`, `_`, space and
/// the capitals (small letters draw as capitals, for known people's names). Each glyph is seven rows of five bits, the leftmost pixel in bit 4.
enum BitmapFont {
    /// Glyph width in font pixels.
    static let glyphWidth = 5
    /// Glyph height in font pixels.
    static let glyphHeight = 7
    /// Distance from one glyph to the next (one blank column between glyphs).
    static let advance = 6

    /// The characters the font has, in the order of `bitRows`.
    static let characters: [UInt8] = Array("0123456789#.-? ADIPSBCEFGHJKLMNOQRTUVWXYZ_".utf8)

    /// Seven rows per character of `characters`.
    static let bitRows: [UInt8] = [
        0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110, // 0
        0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110, // 1
        0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111, // 2
        0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110, // 3
        0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010, // 4
        0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110, // 5
        0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110, // 6
        0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000, // 7
        0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110, // 8
        0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100, // 9
        0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010, // #
        0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100, // .
        0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000, // -
        0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b00000, 0b00100, // ?
        0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, // space
        0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001, // A
        0b11100, 0b10010, 0b10001, 0b10001, 0b10001, 0b10010, 0b11100, // D
        0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110, // I
        0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000, // P
        0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110, // S
        0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110, // B
        0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110, // C
        0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111, // E
        0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000, // F
        0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111, // G
        0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001, // H
        0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100, // J
        0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001, // K
        0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111, // L
        0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001, // M
        0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001, // N
        0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110, // O
        0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101, // Q
        0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001, // R
        0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, // T
        0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110, // U
        0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100, // V
        0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010, // W
        0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001, // X
        0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100, 0b00100, // Y
        0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111, // Z
        0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b11111, // _
    ]

    /// Row `row` (0 at the top) of the glyph for ASCII `character`; unknown characters draw as `?`.
    static func bits(of character: UInt8, row: Int) -> UInt8 {
        let character = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(character) ? character - 32 : character
        let index = characters.firstIndex(of: character) ?? characters.firstIndex(of: UInt8(ascii: "?")) ?? 0
        return bitRows[index * glyphHeight + row]
    }

    /// Width in font pixels of `count` characters (no trailing blank column).
    static func textWidth(count: Int) -> Int { count > 0 ? count * advance - 1 : 0 }

    /// Draws `text` with its top-left corner at (`x`, `y`), each font pixel a `scale` x `scale`
    /// square, clipped to the canvas. Runs of set bits in a row become one rectangle.
    static func draw<Surface: OverlaySurface>(_ text: UnsafeBufferPointer<UInt8>, x: Int, y: Int, scale: Int,
                                              color: RenderColor, on canvas: Surface) {
        for (i, character) in text.enumerated() {
            let left = x + i * advance * scale
            for row in 0..<glyphHeight {
                let bits = Int(BitmapFont.bits(of: character, row: row))
                var column = 0
                while column < glyphWidth {
                    guard bits & (1 << (glyphWidth - 1 - column)) != 0 else { column += 1; continue }
                    var end = column + 1
                    while end < glyphWidth, bits & (1 << (glyphWidth - 1 - end)) != 0 { end += 1 }
                    canvas.fill(PixelRect(x0: left + column * scale, y0: y + row * scale,
                                          x1: left + end * scale, y1: y + (row + 1) * scale), color: color)
                    column = end
                }
            }
        }
    }
}
