import Foundation

/// The timeline as inline SVG: one row per track (under a heading per person when identities
/// exist), a bar wherever the track is present, detected and predicted frames in two styles, an
/// h:mm:ss axis, and a `<title>` on every bar giving its times (the browser's own tooltip).
///
/// Spans closer together than half a pixel are drawn as one bar (the larger kind wins), so an
/// hour of video with thousands of detected/predicted alternations stays a few bars per track.
package struct TimelineSVG {
    /// Width of the drawing in user units (it scales to the page width).
    package static let width = 1000.0
    /// Left column holding the track labels.
    static let labelWidth = 150.0
    static let rowHeight = 16.0, headingHeight = 20.0, axisHeight = 24.0

    let model: TrackModel

    package init(model: TrackModel) { self.model = model }

    /// The tracks in drawing order with the person heading before each group (nil: no headings).
    func groups() -> [(person: String?, tracks: [TrackInfo])] {
        guard model.hasPersons else { return [(nil, model.tracks)] }
        let grouped = Dictionary(grouping: model.tracks) { $0.person ?? "" }
        let named = grouped.keys.filter { !$0.isEmpty }.sorted()
        var result = named.map { (person: Optional($0), tracks: grouped[$0]!) }
        if let unnamed = grouped[""] { result.append((person: "no person", tracks: unnamed)) }
        return result
    }

    /// The SVG element.
    package func render() -> String {
        let groups = groups()
        let headings = model.hasPersons ? groups.count : 0
        let height = Self.axisHeight + Double(model.tracks.count) * Self.rowHeight + Double(headings) * Self.headingHeight + 4
        let plotWidth = Self.width - Self.labelWidth - 30
        let duration = max(model.duration, 0.001)
        let scale = plotWidth / duration
        var svg = "<svg class=\"timeline\" viewBox=\"0 0 \(Int(Self.width)) \(HTMLText.coordinate(height))\" "
        svg += "width=\"\(Int(Self.width))\" height=\"\(HTMLText.coordinate(height))\" role=\"img\" "
        svg += "aria-label=\"Timeline of \(model.tracks.count) tracks over \(HTMLText.clock(duration))\">\n"
        // Axis: ticks and grid lines at round times of the video's clock, from its start.
        let step = HTMLText.tickStep(duration: duration)
        let origin = model.startTime
        var index = (origin / step).rounded(.up)
        while index * step <= origin + duration + 1e-9 {
            let tick = index * step
            let x = HTMLText.coordinate(Self.labelWidth + (tick - origin) * scale)
            svg += "<line class=\"grid\" x1=\"\(x)\" y1=\"\(Int(Self.axisHeight - 4))\" x2=\"\(x)\" y2=\"\(HTMLText.coordinate(height))\"/>"
            svg += "<text class=\"tick\" x=\"\(x)\" y=\"14\" text-anchor=\"middle\">\(HTMLText.axisLabel(tick, step: step))</text>\n"
            index += 1
        }
        var y = Self.axisHeight
        for group in groups {
            if model.hasPersons, let person = group.person {
                svg += "<text class=\"person\" x=\"2\" y=\"\(HTMLText.coordinate(y + 14))\">\(HTMLText.escape(person))</text>\n"
                y += Self.headingHeight
            }
            for track in group.tracks {
                svg += "<g class=\"row\" id=\"timeline-\(track.id)\" data-track=\"\(track.id)\">"
                svg += "<text class=\"label\" x=\"\(model.hasPersons ? 14 : 2)\" y=\"\(HTMLText.coordinate(y + 12))\">"
                svg += "<a href=\"#track-\(track.id)\">track \(track.id)</a></text>"
                svg += bars(track, y: y + 2, scale: scale)
                svg += "</g>\n"
                y += Self.rowHeight
            }
        }
        svg += "</svg>"
        return svg
    }

    /// The bars of one track: each span as it is while a frame is at least half a pixel wide;
    /// else spans are summed into half-pixel bins and runs of bins of one kind drawn as one bar.
    func bars(_ track: TrackInfo, y: Double, scale: Double) -> String {
        var out = ""
        let frameLength = model.frameCount > 0 ? model.duration / Double(model.frameCount) : 0.04
        let origin = model.startTime
        // `start` and `end` are times of the video's clock.
        func bar(start: Double, end: Double, detected: Int, predicted: Int) {
            let x = Self.labelWidth + max(0, start - origin) * scale
            let width = max(1, (end - start) * scale)
            let isPredicted = predicted > detected
            let frames = detected + predicted
            out += "<rect class=\"\(isPredicted ? "predicted" : "detected")\" x=\"\(HTMLText.coordinate(x))\" "
            out += "y=\"\(HTMLText.coordinate(y))\" width=\"\(HTMLText.coordinate(width))\" height=\"\(Int(Self.rowHeight - 4))\">"
            out += "<title>track \(track.id): \(HTMLText.preciseClock(start)) to \(HTMLText.preciseClock(end)), "
            out += "\(frames) frame\(frames == 1 ? "" : "s") "
            out += isPredicted ? (detected > 0 ? "mostly predicted" : "predicted") : (predicted > 0 ? "mostly detected" : "detected")
            out += "</title></rect>"
        }
        if frameLength * scale >= 0.5 {
            for span in track.intervals {
                let frames = span.lastFrame - span.firstFrame + 1
                bar(start: span.start, end: span.end + frameLength, detected: span.predicted ? 0 : frames,
                    predicted: span.predicted ? frames : 0)
            }
            return out
        }
        let binsPerUnit = 2 * scale
        let count = Int(max(model.duration, 0.001) * binsPerUnit) + 2
        var detected = [Int](repeating: 0, count: count), predicted = detected
        for span in track.intervals {
            let frames = span.lastFrame - span.firstFrame + 1
            let first = min(count - 1, max(0, Int(max(0, span.start - origin) * binsPerUnit)))
            let last = min(count - 1, max(first, Int(min(Double(count), max(0, span.end + frameLength - origin) * binsPerUnit))))
            let share = max(1, frames / (last - first + 1))
            for b in first...last {
                if span.predicted { predicted[b] += share } else { detected[b] += share }
            }
        }
        var b = 0
        while b < count {
            let state = detected[b] + predicted[b] == 0 ? 0 : (predicted[b] > detected[b] ? 2 : 1)
            var end = b + 1, d = detected[b], p = predicted[b]
            while end < count {
                let next = detected[end] + predicted[end] == 0 ? 0 : (predicted[end] > detected[end] ? 2 : 1)
                if next != state { break }
                d += detected[end]; p += predicted[end]; end += 1
            }
            if state != 0 {
                bar(start: origin + Double(b) / binsPerUnit, end: origin + Double(end) / binsPerUnit, detected: d, predicted: p)
            }
            b = end
        }
        return out
    }
}
