import FaceCore
import Foundation

/// A model-free face detector: OpenCV's Viola-Jones (Haar or LBP) cascades evaluated in pure Swift,
/// giving the same boxes as OpenCV's `detectMultiScale`, plus eyes, mouth and smile from the eye and
/// smile cascades.
///
/// Confidence: OpenCV's grouping reports how many raw windows merged into a face (`neighbors`,
/// always above `minNeighbors`). It is mapped to `1 - 0.5^(neighbors / 8)`: 0.29 at 4 windows,
/// 0.5 at 8, 0.75 at 16, 0.94 at 32 — monotonic, so ranking and thresholds behave.
///
/// One instance per thread (it keeps pyramid buffers between frames); each instance scans a frame
/// on `options.threads` threads.
package final class HaarCascadeDetector: FaceDetector {
    /// `haar`, as given to `--detector`.
    package let name = "haar"
    /// The settings in use.
    package let options: HaarCascadeOptions
    /// The face classifier.
    package let faces: CascadeClassifier
    private let features: FacialFeatureFinder?

    /// Builds the detector from its options (`HaarCascadeOptions(settings:threshold:minFaceSize:)`).
    /// Throws `CascadeError` naming the file when a cascade is missing or unusable.
    package init(options: HaarCascadeOptions) throws {
        guard options.scaleFactor > 1, options.scaleFactor.isFinite else {
            throw CascadeError.invalid(path: options.cascadePath, reason: "scale factor \(options.scaleFactor) must be above 1")
        }
        self.options = options
        faces = try CascadeClassifier(contentsOf: options.resolve(options.cascadePath), threads: options.threads)
        features = options.findFacialFeatures ? try FacialFeatureFinder(options: options) : nil
    }

    /// The faces in a BGRA frame (converted to grey like OpenCV's BGR2GRAY), most confident first.
    package func detect(in image: BGRAImage) throws -> [FaceObservation] {
        detect(gray: GrayImage(bgra: image))
    }

    /// The faces in a grey image, most confident first.
    package func detect(gray: GrayImage) -> [FaceObservation] {
        guard !gray.isEmpty else { return [] }
        let found = faces.detectMultiScale(gray, scaleFactor: options.scaleFactor, minNeighbors: options.minNeighbors,
                                           minSize: (options.minFaceSize, options.minFaceSize))
        var observations: [FaceObservation] = []
        for detection in found {
            let r = detection.rect
            var face = FaceObservation(bounds: Rect(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height)),
                                       confidence: Self.confidence(neighbors: detection.neighbors))
            guard face.confidence >= options.minConfidence, min(r.width, r.height) >= options.minFaceSize else { continue }
            features?.annotate(&face, in: gray)
            observations.append(face)
        }
        return observations.sorted { ($0.confidence, $0.bounds.area) > ($1.confidence, $1.bounds.area) }
    }

    /// Maps OpenCV's neighbour count to [0, 1): `1 - 0.5^(neighbors / 8)`.
    package static func confidence(neighbors: Int) -> Double {
        1 - pow(0.5, Double(max(0, neighbors)) / 8)
    }
}
