import FaceTrack
import Foundation
import TestSupport
import XCTest

/// What a program that imports `FaceTrack` can do with the public API alone (no `@testable`):
/// the calls docs/library.md shows.
final class PublicAPITests: XCTestCase {
    /// The folder scripts/setup put the models in (`InstalledModels`: $FACETRACK_MODELS, else the
    /// repository's), named explicitly so the test does not depend on where the bundle is built.
    private var models: ModelLocator {
        get throws {
            let model = try InstalledModels.path("face_detection_full_range.tflite")
            return ModelLocator(explicitDirectory: (model as NSString).deletingLastPathComponent)
        }
    }

    private var portrait: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DetectionTests/Fixtures/grace_hopper.ppm").path
    }

    func testDetectInCallerOwnedMemoryWithoutACopy() throws {
        let photo = try ImageLoader.load(path: portrait).image
        // A caller's buffer with a wider stride than the image needs, as camera buffers have.
        let stride = photo.width * 4 + 256
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * photo.height)
        defer { buffer.deallocate() }
        for y in 0..<photo.height { (buffer + y * stride).update(from: photo.row(y), count: photo.width * 4) }
        let wrapped = try XCTUnwrap(BGRAImage(wrapping: buffer, width: photo.width, height: photo.height, bytesPerRow: stride))
        XCTAssertEqual(wrapped.pixels, buffer, "no copy")
        XCTAssertNil(BGRAImage(wrapping: buffer, width: 10, height: 10, bytesPerRow: 39), "stride shorter than a row")

        let detector = try XCTUnwrap(DetectionSettings(detector: .blazeface(), models: models).makeDetector())
        let own = try detector.detect(in: photo)
        let borrowed = try detector.detect(in: wrapped)
        XCTAssertEqual(own.count, 1)
        XCTAssertEqual(borrowed, own, "same pixels, same faces")
    }

    func testTrackAndDrawOwnFramesWithTheSecondPass() throws {
        let photo = try ImageLoader.load(path: portrait).image
        let detection = DetectionSettings(detector: .blazeface(), models: try models)
        let tracking = TrackingSettings(minHits: 2)
        let threshold = detection.effectiveThreshold
        let detector = try XCTUnwrap(detection.makeDetector(threshold: tracking.detectorThreshold(reportingAt: threshold)))
        let tracker = Tracker(configuration: tracking.configuration(framesPerSecond: 25, threshold: threshold))
        var rows: [TrackedFace] = []
        for frame in 0..<3 {
            rows = tracker.update(frame: frame, time: Double(frame) / 25, detections: try detector.detect(in: photo))
        }
        XCTAssertEqual(rows.map(\.trackID), [1])
        let canvas = photo.copy()
        OverlayRenderer(configuration: OverlayConfiguration(kinds: [.boxes])).render(rows, on: canvas)
        let box = rows[0].display.bounds
        let edge = canvas.pixel(x: Int(box.x.rounded()) + 1, y: Int(box.center.y))
        XCTAssertEqual([edge.r, edge.g, edge.b], [255, 0, 0], "a red box edge")
    }

    func testJobRunsAVideoAndReportsBadSettings() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-frames:v", "6", "-pix_fmt", "yuv420p", clip])
        var job = FaceTrackJob(input: clip, outputs: JobOutputs(video: folder.file("out.mp4"), csv: folder.file("t.csv")))
        job.detection = DetectionSettings(detector: .blazeface(), models: try models)
        job.overlay.kinds = [.boxes, .labels]
        let summary = try job.run()
        XCTAssertEqual(summary.frames, 6)
        XCTAssertEqual(folder.contents(), ["clip.mp4", "out.mp4", "t.csv"])

        job.tracking.minHits = 0
        XCTAssertThrowsError(try job.run()) { error in
            XCTAssertTrue(error is JobSettingsError)
            XCTAssertTrue("\(error)".contains("--min-hits"), "\(error)")
        }
    }

    /// `facetrack detect` as a library call: the same rows the command writes, and the errors
    /// docs/library.md names are public types a program can catch.
    func testStillImageJobWritesOneRowPerFaceAndReportsUnreadableImages() throws {
        let folder = try TemporaryFolder()
        try "not an image".write(toFile: folder.file("broken.jpg"), atomically: false, encoding: .utf8)
        var job = StillImageJob(images: [portrait, folder.file("broken.jpg")], csv: folder.file("faces.csv"))
        job.detection = DetectionSettings(detector: .blazeface(), models: try models)
        var failed: [String] = []
        let summary = try job.run { image, error in
            XCTAssertTrue(error is MediaError, "\(error)")
            failed.append(image)
        }
        XCTAssertEqual([summary.images, summary.faces, summary.failed], [1, 1, 1])
        XCTAssertEqual(failed, [folder.file("broken.jpg")])
        let rows = try String(contentsOfFile: folder.file("faces.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.count, 2)
        XCTAssertTrue(rows[1].hasPrefix(portrait + ",0,"), String(rows[1]))

        job.csv = portrait
        XCTAssertThrowsError(try job.run { _, _ in }) { error in
            guard case AtomicOutputError.isInput = error else { return XCTFail("\(error)") }
        }
        job.csv = folder.file("again.csv")
        job.knownFolder = folder.file("nobody")
        XCTAssertThrowsError(try job.run { _, _ in }) { XCTAssertTrue($0 is KnownPeopleError, "\($0)") }
    }

    func testReadmeShowsTheExampleProgramAsItIs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(contentsOf: root.appendingPathComponent("Examples/detect-photo/main.swift"), encoding: .utf8)
        XCTAssertTrue(readme.contains("```swift\n" + example + "```"), "README's library example is Examples/detect-photo/main.swift")
    }
}
