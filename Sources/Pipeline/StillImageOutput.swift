import FaceCore
import Foundation
import MediaIO
import Tracking

/// `-o photo.jpg` / `.png` for a still-image input: a real JPEG or PNG, upright (EXIF orientation
/// applied, so no viewer turns it again), with the overlays drawn. The faces of the one frame come
/// from the tracking stage like any output; the picture is decoded again, upright, at `finish()`.
final class StillImageOutput: FrameOutput {
    private let path: String
    private let input: String
    private let renderer: FrameRenderer?
    private var faces: [TrackedFace] = []

    /// Checks `path` can be written (and is not the input) before the run.
    init(path: String, input: String, renderer: FrameRenderer?) throws {
        _ = try AtomicOutput(path: path, inputs: [input])
        self.path = path
        self.input = input
        self.renderer = renderer
    }

    func write(frame: Int, time: Double, faces: [TrackedFace]) throws {
        if frame == 0 { self.faces = faces }
    }

    func finish() throws {
        let image = try ImageLoader.load(path: input).image
        renderer?.render(faces, on: image)
        try StillImageWriter.write(image, to: path, inputs: [input])
    }
}

/// An output extension that cannot hold the input.
struct OutputFormatError: Error, CustomStringConvertible {
    let path: String
    var description: String {
        "\(path): a .\((path as NSString).pathExtension) output holds one still image, and the input is a video; use .mp4, .mkv or .mov"
    }
}
