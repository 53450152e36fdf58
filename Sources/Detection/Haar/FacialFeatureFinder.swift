import FaceCore
import Foundation

/// Finds eyes, mouth and smile inside a face box with OpenCV's eye and smile cascades.
///
/// The face is cropped and resized (bilinear) to a fixed width, so small faces become searchable
/// and large ones cost no more than small ones. Eyes: the face at 160 px, `haarcascade_eye.xml` in
/// its top 60%, windows 12% to 45% of the width; the strongest group, then the strongest one on the
/// other half of the face. Smile: the face at 64 px, `haarcascade_smile.xml` in its bottom 45%,
/// windows at least half the width, scale step 1.05; a smile when the strongest group has at least
/// 16 windows (the smile cascade fires on most mouths; the count is what separates smiles).
/// The thresholds were calibrated on hand-labelled faces (docs/performance.md, "Numbers behind
/// choices in the code"). Only what is found is set; `hasSmile` is false when the search ran
/// and found no smile strong enough, nil when the face box lies outside the frame.
final class FacialFeatureFinder {
    private let eyes: CascadeClassifier
    private let smile: CascadeClassifier
    /// Width the face is resized to for the eye search.
    static let eyeFaceWidth = 160
    /// Width the face is resized to for the smile search.
    static let smileFaceWidth = 64
    /// Neighbours the strongest smile group needs.
    static let smileNeighbors = 16

    init(options: HaarCascadeOptions) throws {
        eyes = try CascadeClassifier(contentsOf: options.resolve(HaarCascadeOptions.eyeCascade), threads: 1)
        smile = try CascadeClassifier(contentsOf: options.resolve(HaarCascadeOptions.smileCascade), threads: 1)
    }

    /// Fills the eyes, roll, mouth and smile of `face` from the grey frame.
    func annotate(_ face: inout FaceObservation, in gray: GrayImage) {
        let left = max(0, Int(face.bounds.x)), top = max(0, Int(face.bounds.y))
        let crop = gray.cropped(x: left, y: top, width: Int(face.bounds.maxX) - left, height: Int(face.bounds.maxY) - top)
        guard !crop.isEmpty else { return }
        let eyeFace = crop.resized(width: Self.eyeFaceWidth, height: Self.height(of: crop, atWidth: Self.eyeFaceWidth))
        let mouthFace = crop.resized(width: Self.smileFaceWidth, height: Self.height(of: crop, atWidth: Self.smileFaceWidth))
        guard !eyeFace.isEmpty, !mouthFace.isEmpty else { return }
        // Resized-face pixels back to frame pixels.
        func mapper(_ resized: GrayImage) -> (Double, Double) -> Point {
            let sx = Double(crop.width) / Double(resized.width), sy = Double(crop.height) / Double(resized.height)
            return { x, y in Point(x: Double(left) + x * sx, y: Double(top) + y * sy) }
        }
        locateEyes(&face, in: eyeFace, toFrame: mapper(eyeFace))
        locateSmile(&face, in: mouthFace, toFrame: mapper(mouthFace))
    }

    private static func height(of crop: GrayImage, atWidth width: Int) -> Int {
        max(1, Int((Double(crop.height) * Double(width) / Double(crop.width)).rounded()))
    }

    private func locateEyes(_ face: inout FaceObservation, in canonical: GrayImage, toFrame: (Double, Double) -> Point) {
        let width = canonical.width
        let region = canonical.cropped(x: 0, y: 0, width: width, height: canonical.height * 6 / 10)
        let minSide = max(eyes.model.windowWidth, width * 12 / 100), maxSide = width * 45 / 100
        guard region.height >= minSide, maxSide >= minSide else { return }
        let hits = eyes.detectMultiScale(region, scaleFactor: 1.1, minNeighbors: 3,
                                         minSize: (minSide, minSide), maxSize: (maxSide, maxSide))
            .sorted { $0.neighbors > $1.neighbors }
        guard let first = hits.first else { return }
        func centreX(_ d: CascadeDetection) -> Double { Double(d.rect.x) + Double(d.rect.width) / 2 }
        func centre(_ d: CascadeDetection) -> Point { toFrame(centreX(d), Double(d.rect.y) + Double(d.rect.height) / 2) }
        let middle = Double(width) / 2
        let firstOnLeft = centreX(first) < middle
        let second = hits.dropFirst().first {
            (centreX($0) < middle) != firstOnLeft && abs(centreX($0) - centreX(first)) > Double(width) * 0.2
        }
        if let second {
            let a = centre(first), b = centre(second)
            let (leftEye, rightEye) = a.x < b.x ? (a, b) : (b, a)
            face.leftEye = leftEye
            face.rightEye = rightEye
            face.roll = atan2(rightEye.y - leftEye.y, rightEye.x - leftEye.x) * 180 / .pi
        } else if firstOnLeft {
            face.leftEye = centre(first)
        } else {
            face.rightEye = centre(first)
        }
    }

    private func locateSmile(_ face: inout FaceObservation, in canonical: GrayImage, toFrame: (Double, Double) -> Point) {
        let top = canonical.height * 55 / 100
        let region = canonical.cropped(x: 0, y: top, width: canonical.width, height: canonical.height - top)
        let minWidth = max(smile.model.windowWidth, canonical.width / 2)
        let minHeight = max(smile.model.windowHeight, minWidth * smile.model.windowHeight / smile.model.windowWidth)
        guard region.width >= minWidth, region.height >= minHeight else { return }
        let hits = smile.detectMultiScale(region, scaleFactor: 1.05, minNeighbors: 3,
                                          minSize: (minWidth, minHeight))
        guard let best = hits.max(by: { $0.neighbors < $1.neighbors }), best.neighbors >= Self.smileNeighbors else {
            face.hasSmile = false
            return
        }
        face.hasSmile = true
        face.mouth = toFrame(Double(best.rect.x) + Double(best.rect.width) / 2,
                             Double(top) + Double(best.rect.y) + Double(best.rect.height) / 2)
    }
}
