import Detection
import FaceCore
import Foundation
import MediaIO
@testable import Pipeline
import Rendering
import TestSupport
import Tracking
import XCTest

/// A face at a fixed upright place on every frame, with eyes and mouth.
private final class FixedFaceDetector: FaceDetector {
    let name = "fixed"
    func detect(in image: BGRAImage) throws -> [FaceObservation] {
        // Pictures arrive at the frame's own size (no planner): place the face by fractions.
        let w = Double(image.width), h = Double(image.height)
        var face = FaceObservation(bounds: Rect(x: 0.3 * w, y: 0.25 * h, width: 0.35 * w, height: 0.4 * h), confidence: 0.95)
        face.leftEye = Point(x: 0.4 * w, y: 0.38 * h)
        face.rightEye = Point(x: 0.55 * w, y: 0.38 * h)
        face.mouth = Point(x: 0.47 * w, y: 0.55 * h)
        return [face]
    }
}

/// The same renderer behind another type: the render stage cannot draw it in YUV, so it takes
/// the BGRA round trip. Used to compare the two paths on the same frames.
private struct BGRAOnly: FrameRenderer {
    let inner: OverlayRenderer
    func render(_ faces: [TrackedFace], hiding hidden: [TrackedFace], on image: BGRAImage) {
        inner.render(faces, hiding: hidden, on: image)
    }
}

/// The render stage draws overlays on the decoded YUV planes: same look as the BGRA renderer,
/// and pixels away from the overlays come out exactly as decoded (no colour round trip).
final class RenderPathTests: XCTestCase {
    private func run(_ clip: String, renderer: FrameRenderer, into output: String) throws {
        var job = FaceTrackJob(input: clip, outputs: JobOutputs(video: output),
                               encoder: EncoderSettings(codec: "libx264", crf: 0, preset: "ultrafast"), threads: 2)
        job.tracking.minHits = 1
        var builder = PipelineBuilder(job: job, input: try VideoReader(path: clip, threads: 2))
        builder.makeDetector = { FixedFaceDetector() }
        builder.geometry = nil
        builder.renderer = renderer
        var pipeline = try builder.build()
        _ = try pipeline.run()
    }

    /// The stored luma plane of every frame.
    private func luma(_ path: String) throws -> [UInt8] {
        let raw = path + ".gray"
        try Tools.ffmpeg(["-noautorotate", "-i", path, "-f", "rawvideo", "-pix_fmt", "gray", raw])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    private func compare(clip: String, size: (Int, Int), configuration: OverlayConfiguration, in folder: TemporaryFolder,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let yuvOut = folder.file("yuv.mkv"), bgraOut = folder.file("bgra.mkv")
        try run(clip, renderer: OverlayRenderer(configuration: configuration), into: yuvOut)
        try run(clip, renderer: BGRAOnly(inner: OverlayRenderer(configuration: configuration)), into: bgraOut)
        let source = try luma(clip), yuv = try luma(yuvOut), bgra = try luma(bgraOut)
        XCTAssertEqual(yuv.count, source.count, file: file, line: line)
        XCTAssertEqual(bgra.count, source.count, file: file, line: line)
        // Where the BGRA path clearly drew (over any frame), grown by a margin for chroma and blur edges.
        let (width, height) = size
        let frameSize = width * height
        var x0 = width, y0 = height, x1 = -1, y1 = -1
        var total = 0
        for i in source.indices {
            total += abs(Int(yuv[i]) - Int(bgra[i]))
            guard abs(Int(bgra[i]) - Int(source[i])) > 8 else { continue }
            let x = (i % frameSize) % width, y = (i % frameSize) / width
            x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
        }
        XCTAssertLessThanOrEqual(x0, x1, "the BGRA path drew something", file: file, line: line)
        var drawn = 0, changedOutside = 0
        for i in source.indices where yuv[i] != source[i] {
            let x = (i % frameSize) % width, y = (i % frameSize) / width
            if x >= x0 - 4 && x <= x1 + 4 && y >= y0 - 4 && y <= y1 + 4 { drawn += 1 } else { changedOutside += 1 }
        }
        XCTAssertGreaterThan(drawn, 0, "the YUV path drew the overlays", file: file, line: line)
        XCTAssertEqual(changedOutside, 0, "pixels away from the overlays come out exactly as decoded", file: file, line: line)
        XCTAssertLessThan(Double(total) / Double(source.count), 2.0, "same look: mean luma difference", file: file, line: line)
    }

    private func clip(_ folder: TemporaryFolder, size: String, rotate: Int? = nil) throws -> String {
        let plain = folder.file("plain-\(size).mkv")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=10", "-frames:v", "6", "-pix_fmt", "yuv420p",
                          "-c:v", "ffv1", plain])
        guard let rotate else { return plain }
        let turned = folder.file("turned-\(size).mp4")
        try Tools.ffmpeg(["-i", plain, "-c:v", "libx264", "-qp", "0", "-metadata:s:v:0", "rotate=\(rotate)", turned])
        return turned
    }

    func testBoxesEyesMouthAndLabelsLookTheSameAndLeaveOtherPixelsExact() throws {
        let folder = try TemporaryFolder()
        try compare(clip: try clip(folder, size: "160x120"), size: (160, 120),
                    configuration: OverlayConfiguration(kinds: [.boxes, .eyes, .mouth, .labels]), in: folder)
    }

    func testOddSizedFrame() throws {
        let folder = try TemporaryFolder()
        try compare(clip: try clip(folder, size: "162x122"), size: (162, 122),
                    configuration: OverlayConfiguration(kinds: [.boxes, .eyes, .labels], eyeSprite: .heart()), in: folder)
    }

    func testRotatedFrameIsDrawnInItsStoredOrientation() throws {
        let folder = try TemporaryFolder()
        try compare(clip: try clip(folder, size: "160x96", rotate: 90), size: (160, 96),
                    configuration: OverlayConfiguration(kinds: [.boxes, .eyes, .labels]), in: folder)
    }

    func testEveryAnonymisationMode() throws {
        let folder = try TemporaryFolder()
        let clip = try clip(folder, size: "160x120")
        // A picture with every alpha for the image mode.
        let picture = BGRAImage(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 { picture.setPixel(x: x, y: y, b: UInt8(16 * x), g: 90, r: UInt8(16 * y), a: UInt8(x * 16 + y)) } }
        for mode in AnonymizeMode.allCases {
            try compare(clip: clip, size: (160, 120),
                        configuration: OverlayConfiguration(kinds: [], anonymize: mode,
                                                            maskImage: mode == .image ? try MaskImage(image: picture) : nil),
                        in: folder)
        }
    }
}
