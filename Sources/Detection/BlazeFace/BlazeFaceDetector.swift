import Foundation
import FaceCore
import NeuralRuntime

/// MediaPipe's BlazeFace face detector (short or full range) on the in-project TFLite runtime.
///
/// Finds faces with a box, a confidence and six keypoints (eyes, nose, mouth, ears), from which
/// `roll` is computed. The model is chosen by `configuration.model` (`short` or `full`); without
/// it the full-range model runs (faces up to about 5 m, MediaPipe's `--model full`), whatever
/// `accuracy` says. One instance per thread.
package final class BlazeFaceDetector: FaceDetector {
    /// The `--detector` name.
    package let name = "blazeface"
    /// The model in use.
    package let variant: BlazeFaceVariant
    /// Minimum score of a face.
    package let threshold: Double
    /// Faces whose box is narrower or shorter than this many pixels are dropped.
    package let minFaceSize: Double

    private let network: NeuralNetwork
    private let decoder: BlazeFaceDecoder
    private let sampler: BlazeFaceInputSampler
    private let regressorOutput: Int
    private let scoreOutput: Int

    /// Builds the detector `configuration` describes; throws `ModelError` for a missing or damaged
    /// model and `BlazeFaceError` for an unknown `model` value.
    package convenience init(configuration: DetectorConfiguration) throws {
        let variant = try Self.variant(for: configuration)
        try self.init(variant: variant, modelPath: try configuration.models.path(for: variant.fileName),
                      threshold: configuration.threshold ?? variant.defaultThreshold,
                      minFaceSize: configuration.minFaceSize)
    }

    /// Builds a detector from an explicit model file.
    package init(variant: BlazeFaceVariant, modelPath: String, threshold: Double? = nil, minFaceSize: Double = 0)
        throws {
        self.variant = variant
        self.threshold = threshold ?? variant.defaultThreshold
        self.minFaceSize = minFaceSize
        let network: NeuralNetwork
        do {
            network = try NeuralNetwork(tfliteFile: modelPath)
        } catch let error as NeuralRuntimeError {
            throw ModelError.damaged(path: modelPath, reason: error.description)
        }
        let anchors = variant.anchorCount, size = variant.inputSize
        guard network.inputShapes.first == [1, size, size, 3], network.outputShapes.count == 2,
              let regressors = network.outputShapes.firstIndex(of: [1, anchors, 16]),
              let scores = network.outputShapes.firstIndex(of: [1, anchors, 1]) else {
            throw ModelError.damaged(path: modelPath, reason: "not the BlazeFace \(variant.rawValue)-range model: "
                + "input \(network.inputShapes), outputs \(network.outputShapes)")
        }
        self.network = network
        regressorOutput = regressors
        scoreOutput = scores
        decoder = BlazeFaceDecoder(variant: variant, threshold: self.threshold)
        sampler = BlazeFaceInputSampler(size: size)
    }

    /// The variant a configuration asks for: `model` when given, else full range.
    package static func variant(for configuration: DetectorConfiguration) throws -> BlazeFaceVariant {
        guard let model = configuration.model else { return .full }
        guard let variant = BlazeFaceVariant(rawValue: model.lowercased()) else { throw BlazeFaceError.unknownModel(model) }
        return variant
    }

    /// The faces in `image`, most confident first.
    package func detect(in image: BGRAImage) throws -> [FaceObservation] {
        guard !image.isEmpty else { return [] }
        let letterbox = Letterbox(frameWidth: image.width, frameHeight: image.height)
        return detections(in: image).compactMap { observation(from: $0, letterbox: letterbox) }
            .filter { $0.bounds.width >= minFaceSize && $0.bounds.height >= minFaceSize }
    }

    /// The decoded detections in normalised network-input coordinates (before undoing the letterbox).
    package func detections(in image: BGRAImage) -> [BlazeFaceDecoder.Detection] {
        guard !image.isEmpty else { return [] }
        sampler.fill(network.input(0), from: image)
        network.run()
        return decoder.decode(regressors: network.output(regressorOutput), scores: network.output(scoreOutput))
    }

    /// Maps one detection to frame pixels; nil when it is degenerate.
    func observation(from detection: BlazeFaceDecoder.Detection, letterbox: Letterbox) -> FaceObservation? {
        let topLeft = letterbox.framePoint(Point(x: detection.xMin, y: detection.yMin))
        let bottomRight = letterbox.framePoint(Point(x: detection.xMax, y: detection.yMax))
        var face = FaceObservation(bounds: Rect(x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x,
                                                height: bottomRight.y - topLeft.y), confidence: detection.score)
        guard face.isValid else { return nil }
        let points = detection.keypoints.map { point -> Point in
            let mapped = letterbox.framePoint(point)
            return Point(x: mapped.x, y: mapped.y)
        }
        guard points.count == 6 else { return face }
        // Keypoints are from the subject's point of view: their right eye is on the image's left.
        face.leftEye = points[0]
        face.rightEye = points[1]
        face.nose = points[2]
        face.mouth = points[3]
        face.leftEar = points[4]
        face.rightEar = points[5]
        face.roll = atan2(points[1].y - points[0].y, points[1].x - points[0].x) * 180 / .pi
        return face
    }
}
