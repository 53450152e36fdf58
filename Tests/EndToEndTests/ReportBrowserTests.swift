import Foundation
import TestSupport
import XCTest

/// The report of a reference clip in a real browser: headless Chromium (Debian's `chromium`, which
/// `scripts/setup --for-tests` installs) renders it to a screenshot, which must not be blank, and
/// dumps the DOM after loading, which must list every track of the clip with its thumbnail.
final class ReportBrowserTests: XCTestCase {
    /// The browser, or nil when none is installed.
    static var chromium: String? {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) { return path }
        return nil
    }

    /// Headless flags: no sandbox (CI runs as root), no GPU, a private profile, a fixed window.
    private func browser(_ profile: String, _ arguments: [String]) throws -> Tools.Result {
        let chromium = try XCTUnwrap(Self.chromium)
        return try Tools.run("timeout", ["120", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                         "--no-first-run", "--user-data-dir=" + profile, "--window-size=1100,1400"] + arguments)
    }

    func testReferenceClipReportRendersWithEveryTrack() throws {
        guard Self.chromium != nil else {
            throw XCTSkip("chromium is not installed: run scripts/setup --for-tests (apt package chromium) to run the browser test")
        }
        let folder = try TemporaryFolder()
        let samples = ReportCommandTests.samples
        let page = folder.file("crossing.html")
        let run = try Tools.run(Tools.facetrack, ["report", samples + "/crossing.truth.csv", "--video", samples + "/crossing.mp4",
                                                  "-o", page, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let truthIDs = Set(try String(contentsOfFile: samples + "/crossing.truth.csv", encoding: .utf8).split(separator: "\n")
            .dropFirst().compactMap { line in Int(line.split(separator: ",", omittingEmptySubsequences: false)[2]) })
        XCTAssertEqual(truthIDs, [1, 2])

        // The DOM after the page (and its script) loaded.
        let dom = try browser(folder.file("profile"), ["--dump-dom", "file://" + page])
        XCTAssertEqual(dom.status, 0, dom.stderr)
        XCTAssertEqual(ReportCommandTests.tracksWithThumbnails(dom.stdout), truthIDs, "every track with its thumbnail")
        for id in truthIDs { XCTAssertTrue(dom.stdout.contains("id=\"timeline-\(id)\""), "track \(id) on the timeline") }
        XCTAssertFalse(dom.stdout.contains("class=\"controls\" hidden"), "the script ran and showed the zoom buttons")

        // The screenshot: a real picture, not an empty page.
        let shot = folder.file("shot.png")
        let capture = try browser(folder.file("profile"), ["--screenshot=" + shot, "file://" + page])
        XCTAssertEqual(capture.status, 0, capture.stderr)
        let gray = folder.file("shot.gray")
        try Tools.ffmpeg(["-i", shot, "-vf", "scale=275:350", "-f", "rawvideo", "-pix_fmt", "gray", gray])
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gray)))
        XCTAssertEqual(pixels.count, 275 * 350)
        let mean = pixels.reduce(0.0) { $0 + Double($1) } / Double(pixels.count)
        let variance = pixels.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(pixels.count)
        let dark = pixels.filter { $0 < 128 }.count
        XCTAssertGreaterThan(variance, 200, "a blank page has no variance (mean \(mean))")
        XCTAssertGreaterThan(dark, pixels.count / 100, "text, bars and thumbnails are drawn")
        XCTAssertGreaterThan(mean, 128, "a light page, not a black one")
    }
}
