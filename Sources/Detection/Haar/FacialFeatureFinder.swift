import FaceCore
import Foundation

/// Finds eyes, mouth and smile inside a face box with OpenCV's eye and smile cascades.
///
/// Eyes: `haarcascade_eye.xml` in the top 60% of the face, windows 12% to 45% of the face width;
/// the strongest hit, then the strongest one on the other half of the face. Smile:
/// `haarcascade_smile.xml` in the bottom 45%, windows at least a quarter of the face width and at
/// least 20 neighbours (the smile cascade fires often, so a high count is needed). Only what is
/// found is set; `hasSmile` is false when the smile search ran and found nothing, nil when the
/// face is too small to search.
final class FacialFeatureFinder {
    private let eyes: CascadeClassifier
    private let smile: CascadeClassifier
    /// Neighbours a smile needs.
    static let smileNeighbors = 20

    init(options: HaarCascadeOptions) throws {
        eyes = try CascadeClassifier(contentsOf: options.resolve(HaarCascadeOptions.eyeCascade), threads: 1)
        smile = try CascadeClassifier(contentsOf: options.resolve(HaarCascadeOptions.smileCascade), threads: 1)
    }

    /// Fills the eyes, roll, mouth and smile of `face` from the grey frame.
    func annotate(_ face: inout FaceObservation, in gray: GrayImage) {
        let fx = Int(face.bounds.x), fy = Int(face.bounds.y)
        let fw = Int(face.bounds.width), fh = Int(face.bounds.height)
        locateEyes(&face, in: gray, x: fx, y: fy, width: fw, height: fh)
        locateSmile(&face, in: gray, x: fx, y: fy, width: fw, height: fh)
    }

    private func locateEyes(_ face: inout FaceObservation, in gray: GrayImage, x: Int, y: Int, width: Int, height: Int) {
        let region = gray.cropped(x: x, y: y, width: width, height: height * 6 / 10)
        let minSide = max(eyes.model.windowWidth, width * 12 / 100), maxSide = width * 45 / 100
        guard region.width >= minSide, region.height >= minSide, maxSide >= minSide else { return }
        let hits = eyes.detectMultiScale(region, scaleFactor: 1.1, minNeighbors: 3,
                                         minSize: (minSide, minSide), maxSize: (maxSide, maxSide))
            .sorted { $0.neighbors > $1.neighbors }
        guard let first = hits.first else { return }
        let originX = Double(max(0, x)), originY = Double(max(0, y))
        func centre(_ d: CascadeDetection) -> Point {
            Point(x: originX + Double(d.rect.x) + Double(d.rect.width) / 2,
                  y: originY + Double(d.rect.y) + Double(d.rect.height) / 2)
        }
        let a = centre(first)
        let middle = Double(x) + Double(width) / 2
        let second = hits.dropFirst().first { (centre($0).x < middle) != (a.x < middle)
            && abs(centre($0).x - a.x) > Double(width) * 0.2 }
        if let second {
            let b = centre(second)
            let (left, right) = a.x < b.x ? (a, b) : (b, a)
            face.leftEye = left
            face.rightEye = right
            face.roll = atan2(right.y - left.y, right.x - left.x) * 180 / .pi
        } else if a.x < middle {
            face.leftEye = a
        } else {
            face.rightEye = a
        }
    }

    private func locateSmile(_ face: inout FaceObservation, in gray: GrayImage, x: Int, y: Int, width: Int, height: Int) {
        let top = y + height * 55 / 100
        let region = gray.cropped(x: x, y: top, width: width, height: y + height - top)
        let minWidth = max(smile.model.windowWidth, width / 4)
        let minHeight = max(smile.model.windowHeight, minWidth * smile.model.windowHeight / smile.model.windowWidth)
        guard region.width >= minWidth, region.height >= minHeight else { return }
        let hits = smile.detectMultiScale(region, scaleFactor: 1.1, minNeighbors: Self.smileNeighbors,
                                          minSize: (minWidth, minHeight))
        guard let best = hits.max(by: { $0.neighbors < $1.neighbors }) else {
            face.hasSmile = false
            return
        }
        face.hasSmile = true
        face.mouth = Point(x: Double(max(0, x)) + Double(best.rect.x) + Double(best.rect.width) / 2,
                           y: Double(max(0, top)) + Double(best.rect.y) + Double(best.rect.height) / 2)
    }
}
