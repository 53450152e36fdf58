import FaceCore
/// The text above a face box: `#<track ID> <confidence>` such as `#3 0.92`, or only the confidence
/// before the track is confirmed; with a known person's name, `#3 ALICE 0.92` (names in capitals,
/// letters outside the font as `?`, cut to fit). Drawn white on a dark plate in the built-in bitmap font.
enum FaceLabel {
    /// Longest label: `#`, a 64-bit number with sign, a space, a name of up to 24 characters, a
    /// space and `0.00`.
    static let capacity = 56
    /// Characters of a name drawn at most.
    static let nameLength = 24
    /// Plate colour behind the text.
    static let plateColor = RenderColor(r: 16, g: 16, b: 16)
    /// Text colour.
    static let textColor = RenderColor.white

    /// The integer font scale for a frame: 1 at 360p, 3 at 1080p, 6 at 2160p.
    static func scale(width: Int, height: Int) -> Int { max(1, (min(width, height) + 180) / 360) }

    /// Writes the label's ASCII text into `buffer` and returns its length.
    static func format(trackID: Int?, confidence: Double, person: String? = nil,
                       into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var n = 0
        func put(_ c: UInt8) { if n < buffer.count { buffer[n] = c; n += 1 } }
        func putDigits(_ value: UInt) {
            var divisor: UInt = 1
            while value / divisor >= 10 { divisor *= 10 }
            while divisor > 0 { put(UInt8(ascii: "0") + UInt8(value / divisor % 10)); divisor /= 10 }
        }
        if let id = trackID {
            put(UInt8(ascii: "#"))
            if id < 0 { put(UInt8(ascii: "-")) }
            putDigits(id.magnitude)
            put(UInt8(ascii: " "))
        }
        if let person, !person.isEmpty {
            for scalar in person.unicodeScalars.prefix(nameLength) { put(scalar.isASCII ? UInt8(scalar.value) : UInt8(ascii: "?")) }
            put(UInt8(ascii: " "))
        }
        if confidence.isFinite {
            let hundredths = UInt((min(max(confidence, 0), 1) * 100).rounded())
            putDigits(hundredths / 100)
            put(UInt8(ascii: "."))
            put(UInt8(ascii: "0") + UInt8(hundredths / 10 % 10))
            put(UInt8(ascii: "0") + UInt8(hundredths % 10))
        } else {
            put(UInt8(ascii: "?"))
        }
        return n
    }

    /// Draws the label for a face whose box is `box`: on top of the box, left-aligned with it and
    /// moved sideways into the frame when it fits; inside the box's top when there is no room above.
    static func draw<Surface: OverlaySurface>(trackID: Int?, confidence: Double, person: String? = nil,
                                              above box: PixelRect, on canvas: Surface) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let count = format(trackID: trackID, confidence: confidence, person: person, into: buffer)
            draw(UnsafeBufferPointer(rebasing: buffer[..<count]), above: box, on: canvas)
        }
    }

    /// Draws `text` (ASCII; letters outside the font as `?`, cut to `capacity`) as a label above `box`.
    static func draw<Surface: OverlaySurface>(text: String, above box: PixelRect, on canvas: Surface) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var count = 0
            for scalar in text.unicodeScalars.prefix(capacity) {
                buffer[count] = scalar.isASCII ? UInt8(scalar.value) : UInt8(ascii: "?")
                count += 1
            }
            draw(UnsafeBufferPointer(rebasing: buffer[..<count]), above: box, on: canvas)
        }
    }

    private static func draw<Surface: OverlaySurface>(_ text: UnsafeBufferPointer<UInt8>, above box: PixelRect, on canvas: Surface) {
        let scale = FaceLabel.scale(width: canvas.width, height: canvas.height)
        let plateWidth = (BitmapFont.textWidth(count: text.count) + 2) * scale
        let plateHeight = (BitmapFont.glyphHeight + 2) * scale
        var left = box.x0
        if plateWidth <= canvas.width { left = min(max(left, 0), canvas.width - plateWidth) }
        var top = box.y0 - plateHeight
        if top < 0 { top = max(box.y0, 0) }
        canvas.fill(PixelRect(x0: left, y0: top, x1: left + plateWidth, y1: top + plateHeight), color: plateColor)
        BitmapFont.draw(text, x: left + scale, y: top + scale, scale: scale, color: textColor, on: canvas)
    }
}
