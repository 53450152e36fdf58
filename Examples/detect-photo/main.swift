import FaceTrack
import Foundation

// detect-photo PHOTO: prints each face in a photo with its eyes, like CIDetector.features(in:).
guard CommandLine.arguments.count == 2 else {
    print("usage: detect-photo PHOTO")
    exit(2)
}
do {
    let photo = try ImageLoader.load(path: CommandLine.arguments[1]).image  // upright, EXIF applied
    let detection = DetectionSettings(detector: .centerface())                // models/ from scripts/setup
    guard let detector = try detection.makeDetector() else { exit(0) }
    for face in try detector.detect(in: photo) {
        let box = face.bounds
        var line = String(format: "face at x %.0f y %.0f, %.0f x %.0f px, confidence %.2f",
                          box.x, box.y, box.width, box.height, face.confidence)
        if let left = face.leftEye, let right = face.rightEye {
            line += String(format: ", eyes at (%.0f, %.0f) and (%.0f, %.0f)", left.x, left.y, right.x, right.y)
        }
        print(line)
    }
} catch {
    print("detect-photo: \(error)")
    exit(1)
}
