import Foundation

/// The report's three small plots as inline SVG: faces per frame over time, track lengths and
/// detection confidences (histograms). Axis text is real SVG text; every bar has a `<title>`.
package enum PlotsSVG {
    static let width = 320.0, height = 170.0
    static let left = 34.0, right = 8.0, top = 10.0, bottom = 30.0
    static var plotWidth: Double { width - left - right }
    static var plotHeight: Double { height - top - bottom }

    /// Faces per frame, averaged over at most 300 stretches of the video.
    package static func facesOverTime(_ model: TrackModel) -> String {
        let means = model.facesOverTime
        let bins = max(1, means.count)
        let peak = max(1, (means.max() ?? 0).rounded(.up))
        var svg = frame(title: "Faces per frame over time", label: "Faces per frame", yMax: peak, yFormat: { String(Int($0)) },
                        xLabels: (HTMLText.clock(model.startTime), HTMLText.clock(model.startTime + model.duration)))
        var points = "\(HTMLText.coordinate(left)),\(HTMLText.coordinate(Self.top + plotHeight))"
        for (b, mean) in means.enumerated() {
            let x0 = left + Double(b) / Double(bins) * plotWidth, x1 = left + Double(b + 1) / Double(bins) * plotWidth
            let y = Self.top + plotHeight * (1 - mean / peak)
            points += " \(HTMLText.coordinate(x0)),\(HTMLText.coordinate(y)) \(HTMLText.coordinate(x1)),\(HTMLText.coordinate(y))"
        }
        points += " \(HTMLText.coordinate(left + plotWidth)),\(HTMLText.coordinate(Self.top + plotHeight))"
        svg += "<polygon class=\"area\" points=\"\(points)\"><title>mean faces per frame over time (peak \(String(format: "%.2f", means.max() ?? 0)))</title></polygon>"
        return svg + "</svg>"
    }

    /// Track lengths in seconds, in up to 12 bins.
    package static func trackLengths(_ model: TrackModel) -> String {
        let frameLength = model.frameCount > 0 ? model.duration / Double(model.frameCount) : 0.04
        let lengths = model.tracks.map { $0.duration + frameLength }
        let upper = max(frameLength, lengths.max() ?? 1)
        return histogram(title: "Track lengths", label: "Tracks", values: lengths, range: 0...upper, bins: 12,
                         xLabels: (HTMLText.clock(0), String(format: "%.1f s", upper)), unit: "s")
    }

    /// Confidence of every detected face, 0 to 1 in 20 bins.
    package static func confidences(_ model: TrackModel) -> String {
        histogram(title: "Detection confidence", label: "Faces", values: model.confidences, range: 0...1, bins: 20,
                  xLabels: ("0", "1"), unit: "")
    }

    static func histogram(title: String, label: String, values: [Double], range: ClosedRange<Double>, bins: Int,
                          xLabels: (String, String), unit: String) -> String {
        var counts = [Int](repeating: 0, count: bins)
        let span = max(1e-9, range.upperBound - range.lowerBound)
        for value in values {
            let b = Int((value - range.lowerBound) / span * Double(bins))
            counts[min(bins - 1, max(0, b))] += 1
        }
        let peak = Double(max(1, counts.max() ?? 0))
        var svg = frame(title: title, label: label, yMax: peak, yFormat: { String(Int($0)) }, xLabels: xLabels)
        let barWidth = plotWidth / Double(bins)
        for (b, count) in counts.enumerated() where count > 0 {
            let h = plotHeight * Double(count) / peak
            let from = range.lowerBound + span * Double(b) / Double(bins), to = from + span / Double(bins)
            svg += "<rect class=\"bar\" x=\"\(HTMLText.coordinate(left + Double(b) * barWidth + 0.5))\" "
            svg += "y=\"\(HTMLText.coordinate(Self.top + plotHeight - h))\" width=\"\(HTMLText.coordinate(max(0.5, barWidth - 1)))\" "
            svg += "height=\"\(HTMLText.coordinate(h))\"><title>\(count) \(label.lowercased()) from "
            svg += String(format: "%.2f to %.2f", from, to) + (unit.isEmpty ? "" : " \(unit)") + "</title></rect>"
        }
        return svg + "</svg>"
    }

    /// The opening tag, a heading, the axes and their end labels (the caller closes the SVG).
    static func frame(title: String, label: String, yMax: Double, yFormat: (Double) -> String,
                      xLabels: (String, String)) -> String {
        let bottomY = top + plotHeight
        var svg = "<svg class=\"plot\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
        svg += "role=\"img\" aria-label=\"\(HTMLText.escape(title))\">"
        svg += "<line class=\"axis\" x1=\"\(Int(left))\" y1=\"\(Int(top))\" x2=\"\(Int(left))\" y2=\"\(Int(bottomY))\"/>"
        svg += "<line class=\"axis\" x1=\"\(Int(left))\" y1=\"\(Int(bottomY))\" x2=\"\(Int(left + plotWidth))\" y2=\"\(Int(bottomY))\"/>"
        svg += "<text class=\"tick\" x=\"\(Int(left - 4))\" y=\"\(Int(top + 8))\" text-anchor=\"end\">\(yFormat(yMax))</text>"
        svg += "<text class=\"tick\" x=\"\(Int(left - 4))\" y=\"\(Int(bottomY))\" text-anchor=\"end\">0</text>"
        svg += "<text class=\"tick\" x=\"\(Int(left))\" y=\"\(Int(bottomY + 14))\">\(HTMLText.escape(xLabels.0))</text>"
        svg += "<text class=\"tick\" x=\"\(Int(left + plotWidth))\" y=\"\(Int(bottomY + 14))\" text-anchor=\"end\">\(HTMLText.escape(xLabels.1))</text>"
        svg += "<text class=\"caption\" x=\"\(Int(left + plotWidth / 2))\" y=\"\(Int(height - 2))\" text-anchor=\"middle\">\(HTMLText.escape(title))</text>"
        return svg
    }
}
