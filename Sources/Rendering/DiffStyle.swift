import FaceCore

/// How a visual diff (`facetrack render --truth`) looks: a colour per `DiffMark`, the label text,
/// and the key drawn in the frame's corner.
enum DiffStyle {
    /// Predictions that matched a truth face.
    static let matchedColor = RenderColor.green
    /// Truth faces no prediction matched.
    static let missedColor = RenderColor.red
    /// Predictions that matched no truth face.
    static let falseColor = RenderColor(r: 255, g: 255, b: 0)
    /// The outer box of an ID switch.
    static let switchColor = RenderColor.magenta
    /// Predictions that are not scored.
    static let notScoredColor = RenderColor(r: 128, g: 128, b: 128)

    /// Every colour a diff draws with.
    static let colors = [matchedColor, missedColor, falseColor, switchColor, notScoredColor]

    /// The box colour of a mark.
    static func color(_ mark: DiffMark) -> RenderColor {
        switch mark {
        case .matched, .switched: return matchedColor
        case .missed: return missedColor
        case .falseDetection: return falseColor
        case .notScored: return notScoredColor
        }
    }

    /// The label: `#5 0.92` for a match, `#5 WAS #3` at an ID switch, `MISSED T2` for truth face
    /// 2, `FALSE #7 0.40`, `NOT SCORED #7`.
    static func label(_ mark: DiffMark, trackID: Int?, confidence: Double) -> String {
        let id = trackID.map { "#\($0)" } ?? "-"
        let hundredths = confidence.isFinite ? Int((min(max(confidence, 0), 1) * 100).rounded()) : nil
        let score = hundredths.map { " \($0 / 100)." + ($0 % 100 < 10 ? "0" : "") + "\($0 % 100)" } ?? ""
        switch mark {
        case .matched: return id + score
        case .switched(let from): return "\(id) WAS #\(from)"
        case .missed: return "MISSED T" + (trackID.map(String.init) ?? "?")
        case .falseDetection: return "FALSE " + id + score
        case .notScored: return "NOT SCORED " + id
        }
    }

    /// The key: a square of each colour and its word, on a dark plate in the top-left corner.
    static func drawLegend<Surface: OverlaySurface>(on surface: Surface) {
        let entries: [(String, RenderColor)] = [("MATCHED", matchedColor), ("MISSED", missedColor), ("FALSE", falseColor),
                                                ("ID SWITCH", switchColor)]
        let scale = FaceLabel.scale(width: surface.width, height: surface.height)
        let line = (BitmapFont.glyphHeight + 3) * scale
        let width = (BitmapFont.textWidth(count: 9) + BitmapFont.glyphHeight + 6) * scale
        surface.fill(PixelRect(x0: 0, y0: 0, x1: width, y1: line * entries.count + 2 * scale), color: FaceLabel.plateColor)
        for (i, entry) in entries.enumerated() {
            let top = scale * 2 + i * line
            surface.fill(PixelRect(x0: 2 * scale, y0: top, x1: (2 + BitmapFont.glyphHeight) * scale, y1: top + BitmapFont.glyphHeight * scale),
                         color: entry.1)
            Array(entry.0.utf8).withUnsafeBufferPointer { text in
                BitmapFont.draw(text, x: (4 + BitmapFont.glyphHeight) * scale, y: top, scale: scale, color: FaceLabel.textColor,
                                on: surface)
            }
        }
    }
}
