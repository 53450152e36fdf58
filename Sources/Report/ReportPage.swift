import Foundation
import MediaIO

/// What the header says about where the tracks came from, besides the tracks themselves.
package struct ReportDetails: Sendable {
    /// The video (or the CSV when no video is known), shown as the page's subject.
    package var input: String
    /// The tracks CSV, when the report was made from one.
    package var tracksFile: String?
    /// The video's container facts, when a video is known.
    package var video: VideoFacts?
    /// The detector and its settings, as label and value.
    package var settings: [(String, String)] = []
    /// The run: time taken and its statistics, as label and value.
    package var run: [(String, String)] = []

    /// Creates details.
    package init(input: String, tracksFile: String? = nil, video: VideoFacts? = nil, settings: [(String, String)] = [],
                 run: [(String, String)] = []) {
        self.input = input
        self.tracksFile = tracksFile
        self.video = video
        self.settings = settings
        self.run = run
    }
}

/// The self-contained HTML page: header, timeline, track table with thumbnails, plots. No
/// external resource of any kind; without JavaScript everything is shown (the script adds hover
/// highlighting and timeline zoom).
package enum ReportPage {
    /// The whole page.
    package static func html(model: TrackModel, details: ReportDetails, thumbnails: [Int: Thumbnail] = [:]) -> String {
        let name = (details.input as NSString).lastPathComponent
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<meta name=\"generator\" content=\"facetrack report\">\n"
        h += "<title>Faces in \(HTMLText.escape(name)) - FaceTrack report</title>\n<style>\n\(ReportStyle.css)\n\(ReviewPanel.css)\n</style>\n</head>\n<body>\n"
        h += header(model: model, details: details, name: name)
        h += "<section id=\"timeline-section\">\n<h2>Timeline <span class=\"controls\" hidden>zoom "
        h += "<button type=\"button\" data-zoom=\"out\">&minus;</button><button type=\"button\" data-zoom=\"reset\">1&times;</button>"
        h += "<button type=\"button\" data-zoom=\"in\">+</button></span></h2>\n"
        h += "<p class=\"legend\">One row per track\(model.hasPersons ? ", grouped by person" : ""): "
        h += "<i style=\"background:var(--det)\"></i>detected <i style=\"background:var(--pred)\"></i>predicted by the tracker "
        h += "(hover a bar for its times)</p>\n"
        h += "<div class=\"scroll\">\n" + TimelineSVG(model: model).render() + "\n</div>\n</section>\n"
        h += table(model: model, thumbnails: thumbnails)
        h += ReviewPanel.html(tracksFile: details.tracksFile)
        h += "<section id=\"plots\">\n<h2>Plots</h2>\n<div class=\"plots\">\n"
        h += PlotsSVG.facesOverTime(model) + "\n" + PlotsSVG.trackLengths(model) + "\n" + PlotsSVG.confidences(model)
        h += "\n</div>\n</section>\n"
        for track in model.tracks {
            guard let thumbnail = thumbnails[track.id] else { continue }
            h += "<div class=\"zoom\" id=\"face-\(track.id)\"><a href=\"#track-\(track.id)\" title=\"close\"><figure>"
            h += "<img alt=\"track \(track.id), larger\" width=\"\(Thumbnails.largeSide)\" height=\"\(Thumbnails.largeSide)\" "
            h += "src=\"data:image/jpeg;base64,\(thumbnail.large.base64EncodedString())\">"
            h += "<figcaption>track \(track.id) at \(HTMLText.preciseClock(track.best.time)) (frame \(track.best.frame)); "
            h += "click to close</figcaption></figure></a></div>\n"
        }
        h += "<footer>Made by facetrack report. Times are the video's presentation times; boxes and crops are in the upright frame.</footer>\n"
        h += "<script>\n\(ReportStyle.script)\n\(ReviewPanel.script)\n</script>\n</body>\n</html>\n"
        return h
    }

    static func header(model: TrackModel, details: ReportDetails, name: String) -> String {
        var facts: [(String, String)] = [("Input", details.input)]
        if let tracks = details.tracksFile { facts.append(("Tracks file", tracks)) }
        facts.append(("Duration", HTMLText.preciseClock(model.duration)))
        if let video = details.video {
            var resolution = "\(video.width) × \(video.height)"
            if let fps = video.framesPerSecond, model.frameCount > 1 { resolution += String(format: ", %.3g fps", fps) }
            facts.append(("Resolution", resolution))
        } else {
            facts.append(("Resolution", "unknown (no video given)"))
        }
        facts.append(("Frames", String(model.frameCount)))
        facts.append(("Faces", String(model.faces)))
        facts.append(("Tracks", String(model.tracks.count)))
        if model.hasPersons { facts.append(("Persons", String(model.persons.count))) }
        facts += details.settings + details.run
        var h = "<header>\n<h1>Faces in \(HTMLText.escape(name))</h1>\n<dl class=\"facts\">\n"
        for (label, value) in facts {
            h += "<dt>\(HTMLText.escape(label))</dt><dd>\(HTMLText.escape(value))</dd>\n"
        }
        return h + "</dl>\n</header>\n"
    }

    static func table(model: TrackModel, thumbnails: [Int: Thumbnail]) -> String {
        let attributes = (smiling: model.tracks.contains { $0.smilingShare != nil },
                          closed: model.tracks.contains { $0.eyesClosedShare != nil })
        var h = "<section id=\"tracks\">\n<h2>Tracks</h2>\n<table>\n<thead><tr><th class=\"l\">face</th><th class=\"l\">track</th>"
        if model.hasPersons { h += "<th class=\"l\">person</th>" }
        h += "<th>first</th><th>last</th><th>frames</th><th>detected</th><th>mean confidence</th>"
        if attributes.smiling { h += "<th>smiling</th>" }
        if attributes.closed { h += "<th>eyes closed</th>" }
        h += "</tr></thead>\n<tbody>\n"
        for track in model.tracks {
            h += "<tr id=\"track-\(track.id)\" class=\"track\" data-track=\"\(track.id)\" data-first=\"\(track.firstFrame)\" "
            h += "data-last=\"\(track.lastFrame)\" data-person=\"\(HTMLText.escape(track.person ?? ""))\"><td class=\"l\">"
            if let thumbnail = thumbnails[track.id] {
                h += "<a href=\"#face-\(track.id)\"><img class=\"thumb\" alt=\"track \(track.id)\" "
                h += "width=\"\(Thumbnails.smallSide)\" height=\"\(Thumbnails.smallSide)\" "
                h += "src=\"data:image/jpeg;base64,\(thumbnail.small.base64EncodedString())\"></a>"
            } else {
                h += "<span class=\"noimg\">no video</span>"
            }
            h += "</td><td class=\"l\">\(track.id)</td>"
            if model.hasPersons { h += "<td class=\"l\">\(HTMLText.escape(track.person ?? ""))</td>" }
            h += "<td>\(HTMLText.preciseClock(track.firstTime))</td><td>\(HTMLText.preciseClock(track.lastTime))</td>"
            h += "<td>\(track.frames)</td><td>\(track.detectedFrames)</td><td>\(String(format: "%.3f", track.meanConfidence))</td>"
            if attributes.smiling { h += "<td>\(track.smilingShare.map(HTMLText.percent) ?? "")</td>" }
            if attributes.closed { h += "<td>\(track.eyesClosedShare.map(HTMLText.percent) ?? "")</td>" }
            h += "</tr>\n"
        }
        if model.tracks.isEmpty { h += "<tr><td class=\"l\" colspan=\"8\">No tracks.</td></tr>\n" }
        return h + "</tbody>\n</table>\n</section>\n"
    }
}
