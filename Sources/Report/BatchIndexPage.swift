import Foundation

/// One input of a batch run on the index page.
package struct IndexEntry: Sendable, Equatable {
    /// The input's path.
    package var input: String
    /// done, skipped or failed.
    package var status: String
    /// Seconds of video, when known.
    package var duration: Double?
    /// Frames, faces and tracks found.
    package var frames: Int, faces: Int, tracks: Int
    /// The one-line error or warning.
    package var error: String?
    /// The report page, as a link relative to the index (nil: none).
    package var link: String?

    /// Creates an entry.
    package init(input: String, status: String, duration: Double? = nil, frames: Int = 0, faces: Int = 0, tracks: Int = 0,
                 error: String? = nil, link: String? = nil) {
        self.input = input
        self.status = status
        self.duration = duration
        self.frames = frames
        self.faces = faces
        self.tracks = tracks
        self.error = error
        self.link = link
    }
}

/// The batch index: a row per file with its status, duration, faces, tracks and a link to its
/// report. Self-contained like the report pages; no script at all.
package enum BatchIndexPage {
    /// The page.
    package static func html(_ entries: [IndexEntry], source: String) -> String {
        let done = entries.filter { $0.status == "done" }.count
        let failed = entries.filter { $0.status == "failed" }.count
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<title>FaceTrack batch: \(entries.count) files</title>\n<style>\n\(ReportStyle.css)\n"
        h += "td.failed{color:#b3261e}td.err{text-align:left;font-size:12px;color:var(--muted);max-width:360px;overflow-wrap:anywhere}\n</style>\n</head>\n<body>\n"
        h += "<header>\n<h1>FaceTrack batch: \(entries.count) files</h1>\n<dl class=\"facts\">\n"
        h += "<dt>Results</dt><dd>\(HTMLText.escape(source))</dd><dt>Status</dt><dd>\(done) done, "
        h += "\(entries.count - done - failed) skipped, \(failed) failed</dd>\n"
        h += "<dt>Faces</dt><dd>\(entries.reduce(0) { $0 + $1.faces })</dd><dt>Tracks</dt><dd>\(entries.reduce(0) { $0 + $1.tracks })</dd>\n"
        h += "</dl>\n</header>\n<section id=\"files\">\n<h2>Files</h2>\n<table>\n<thead><tr><th class=\"l\">input</th>"
        h += "<th class=\"l\">status</th><th>duration</th><th>frames</th><th>faces</th><th>tracks</th><th class=\"l\">report</th>"
        h += "<th class=\"l\">note</th></tr></thead>\n<tbody>\n"
        for entry in entries {
            h += "<tr class=\"file\"><td class=\"l\">\(HTMLText.escape(entry.input))</td>"
            h += "<td class=\"l \(HTMLText.escape(entry.status))\">\(HTMLText.escape(entry.status))</td>"
            h += "<td>\(entry.duration.map(HTMLText.preciseClock) ?? "")</td><td>\(entry.frames)</td>"
            h += "<td>\(entry.faces)</td><td>\(entry.tracks)</td><td class=\"l\">"
            if let link = entry.link { h += "<a href=\"\(HTMLText.escape(link))\">report</a>" }
            h += "</td><td class=\"err\">\(HTMLText.escape(entry.error ?? ""))</td></tr>\n"
        }
        h += "</tbody>\n</table>\n</section>\n<footer>Made by facetrack report.</footer>\n</body>\n</html>\n"
        return h
    }

    /// A link from the index at `indexPath` to `target`: relative when the target is inside the
    /// index's folder, else a file URL.
    package static func link(from indexPath: String, to target: String) -> String {
        let folder = URL(fileURLWithPath: indexPath).standardizedFileURL.deletingLastPathComponent().path
        let full = URL(fileURLWithPath: target).standardizedFileURL.path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let relative = full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : nil
        let encode = { (path: String) in path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path }
        return relative.map(encode) ?? "file://" + encode(full)
    }
}
