import Foundation
import FaceCore
import Detection

// Runs BlazeFaceDetector on raw BGRA images and prints one CSV row per face:
// file,score,x,y,w,h,then the six keypoints (x,y) in the model's order (subject's right eye,
// left eye, nose, mouth, right ear, left ear). Used by scripts/eval-blazeface.
// --square letterboxes every image into the model's square input, as MediaPipe does (for comparing
// with ai-edge-litert); without it the input's shorter side follows the image's aspect.
// Usage: blazeface-eval --model short|full [--models DIR] [--square] FILE.bgra:WIDTH:HEIGHT...

var model = "full"
var modelsDirectory: String?
var square = false
var specs: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--model": model = arguments.next() ?? model
    case "--models": modelsDirectory = arguments.next()
    case "--square": square = true
    default: specs.append(argument)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write("blazeface-eval: \(message)\n".data(using: .utf8) ?? Data())
    exit(1)
}

do {
    guard let variant = BlazeFaceVariant(rawValue: model.lowercased()) else { fail("unknown model \(model) (short or full)") }
    let detector = try BlazeFaceDetector(variant: variant,
                                         modelPath: try ModelLocator(explicitDirectory: modelsDirectory).path(for: variant.fileName),
                                         squareInput: square)
    for spec in specs {
        let parts = spec.split(separator: ":").map(String.init)
        guard parts.count >= 3, let width = Int(parts[parts.count - 2]), let height = Int(parts[parts.count - 1]) else {
            fail("expected FILE:WIDTH:HEIGHT, got \(spec)")
        }
        let path = parts.dropLast(2).joined(separator: ":")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard data.count == width * height * 4 else { fail("\(path) has \(data.count) bytes, not \(width)x\(height)x4") }
        let image = BGRAImage(width: width, height: height)
        data.withUnsafeBytes { raw in
            for y in 0..<height {
                guard let base = raw.baseAddress else { return }
                image.row(y).update(from: base.assumingMemoryBound(to: UInt8.self) + y * width * 4, count: width * 4)
            }
        }
        for face in try detector.detect(in: image) {
            let points = [face.leftEye, face.rightEye, face.nose, face.mouth, face.leftEar, face.rightEar]
                .flatMap { [$0?.x ?? .nan, $0?.y ?? .nan] }
            let values = [face.confidence, face.bounds.x, face.bounds.y, face.bounds.width, face.bounds.height] + points
            print(([path] + values.map { String(format: "%.4f", $0) }).joined(separator: ","))
        }
    }
} catch {
    fail("\(error)")
}
