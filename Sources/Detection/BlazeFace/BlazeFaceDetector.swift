import Foundation
import FaceCore
import NeuralRuntime

/// MediaPipe's BlazeFace face detector (short or full range) on the in-project TFLite runtime.
///
/// Finds faces with a box, a confidence and six keypoints (eyes, nose, mouth, ears), from which
/// `roll` is computed. The model is `BlazeFaceSettings.model`: full range by default (faces up to
/// about 5 m, MediaPipe's `--model full`) or short range (selfie distance). One instance per thread.
package final class BlazeFaceDetector: FaceDetector {
    /// The `--detector` name.
    package let name = "blazeface"
    /// The model in use.
    package let variant: BlazeFaceVariant
    /// Minimum score of a face.
    package let threshold: Double
    /// Faces whose box is narrower or shorter than this many pixels are dropped.
    package let minFaceSize: Double

    /// False: frames are letterboxed into the model's square input, as MediaPipe does (for
    /// comparing with it, or a model whose graph cannot change size). True: the input's shorter
    /// side follows the frame's aspect (`BlazeFaceVariant.shortInputSide`), same picture, less padding.
    package let fitsInputToFrame: Bool
    private let network: ResizableNetwork
    /// One decoder (its anchors) per input size met: a video alternates between a few (the
    /// whole frame's, and the square of crops and tiles).
    private var decoders: [InputSize: BlazeFaceDecoder] = [:]
    private struct InputSize: Hashable { let width, height: Int }
    private let sampler: BlazeFaceInputSampler
    private let regressorOutput: Int
    private let scoreOutput: Int

    /// Builds the detector with the variant's model found by `models`; throws `ModelError` for a
    /// missing or damaged model.
    package convenience init(settings: BlazeFaceSettings = BlazeFaceSettings(), threshold: Double? = nil, minFaceSize: Double = 0,
                             models: ModelLocator = ModelLocator()) throws {
        let variant = settings.model
        try self.init(variant: variant, modelPath: try models.path(for: variant.fileName), threshold: threshold ?? variant.defaultThreshold,
                      minFaceSize: minFaceSize)
    }

    /// Builds a detector from an explicit model file; `squareInput` letterboxes every frame into
    /// the model's square input.
    package init(variant: BlazeFaceVariant, modelPath: String, threshold: Double? = nil, minFaceSize: Double = 0,
                 squareInput: Bool = false) throws {
        self.variant = variant
        self.threshold = threshold ?? variant.defaultThreshold
        self.minFaceSize = minFaceSize
        let network: ResizableNetwork, square: NeuralNetwork
        let anchors = variant.anchorCount, size = variant.inputSize
        do {
            network = try ResizableNetwork(graph: try TFLiteReader.graph(contentsOf: modelPath), capacity: 12)
            square = try network.network(height: size, width: size)
        } catch let error as NeuralRuntimeError {
            if case .outOfMemory = error { throw error }
            throw error.unreadableReason.map { ModelError.unreadable(path: modelPath, reason: $0) }
                ?? ModelError.damaged(path: modelPath, reason: error.description)
        }
        guard network.graph.tensors[network.graph.inputs[0]].shape == [1, size, size, 3], square.outputShapes.count == 2,
              let regressors = square.outputShapes.firstIndex(of: [1, anchors, 16]),
              let scores = square.outputShapes.firstIndex(of: [1, anchors, 1]) else {
            throw ModelError.damaged(path: modelPath, reason: "not the BlazeFace \(variant.rawValue)-range model: "
                + "input \(square.inputShapes), outputs \(square.outputShapes)")
        }
        self.network = network
        // A 16:9 input plans only if the graph's resizes and reshapes can follow the size.
        let wide = variant.shortInputSide(frameWidth: 16, frameHeight: 9)
        fitsInputToFrame = !squareInput && (try? network.network(height: wide, width: size)) != nil
        regressorOutput = regressors
        scoreOutput = scores
        sampler = BlazeFaceInputSampler(size: size)
    }

    /// The faces in `image`, most confident first.
    package func detect(in image: BGRAImage) throws -> [FaceObservation] {
        guard !image.isEmpty else { return [] }
        let letterbox = letterbox(for: image)
        return try detections(in: image, letterbox: letterbox).compactMap { observation(from: $0, letterbox: letterbox) }
            .filter { $0.bounds.width >= minFaceSize && $0.bounds.height >= minFaceSize }
    }

    /// Images of one input size run together in batches of at most this many.
    package static let maximumBatch = 8

    /// Runs every group of two or more pictures as a batch, whatever `BatchPlan.pays` says (tests).
    package var alwaysBatches = false

    /// The faces in each of `images`, bit for bit what `detect(in:)` gives for each alone; images
    /// of one input size run as one batch where that pays (`BatchPlan.pays`; BlazeFace's weights
    /// are small, so on its own it runs them one at a time).
    package func detect(in images: [BGRAImage]) throws -> [[FaceObservation]] {
        var results = [[FaceObservation]](repeating: [], count: images.count)
        let boxes = images.map { $0.isEmpty ? nil : letterbox(for: $0) }
        for (size, members) in BatchPlan.groups(images.indices.filter { boxes[$0] != nil },
                                                key: { BatchPlan.Size(width: boxes[$0]!.inputWidth, height: boxes[$0]!.inputHeight) },
                                                maximum: Self.maximumBatch) {
            let found: [[BlazeFaceDecoder.Detection]]
            let single = try plannedNetwork(batch: 1, width: size.width, height: size.height)
            if members.count == 1 || !(alwaysBatches || BatchPlan.pays(for: single)) {
                found = try members.map { try detections(in: images[$0], letterbox: boxes[$0]!) }
            } else {
                let network = try plannedNetwork(batch: members.count, width: size.width, height: size.height)
                for (slot, member) in members.enumerated() {
                    sampler.fill(network.input(0, image: slot), from: images[member], letterbox: boxes[member]!)
                }
                network.run()
                let decoder = decoder(width: size.width, height: size.height)
                found = members.indices.map { slot in
                    decoder.decode(regressors: network.output(regressorOutput, image: slot),
                                   scores: network.output(scoreOutput, image: slot))
                }
            }
            for (member, detections) in zip(members, found) {
                results[member] = detections.compactMap { observation(from: $0, letterbox: boxes[member]!) }
                    .filter { $0.bounds.width >= minFaceSize && $0.bounds.height >= minFaceSize }
            }
        }
        return results
    }

    private func plannedNetwork(batch: Int, width: Int, height: Int) throws -> NeuralNetwork {
        try network.network(batch: batch, width: width, height: height) {
            BlazeFaceError.inputSize(width: width, height: height, reason: $0)
        }
    }

    /// The decoder (its anchors) for an input size, made on first use.
    private func decoder(width: Int, height: Int) -> BlazeFaceDecoder {
        let size = InputSize(width: width, height: height)
        if let known = decoders[size] { return known }
        let made = BlazeFaceDecoder(variant: variant, threshold: threshold, inputWidth: width, inputHeight: height)
        decoders[size] = made
        return made
    }

    /// Where `image` sits in the network input (`fitsInputToFrame`).
    package func letterbox(for image: BGRAImage) -> Letterbox {
        let long = variant.inputSize
        let short = fitsInputToFrame ? variant.shortInputSide(frameWidth: image.width, frameHeight: image.height) : long
        let wide = image.width >= image.height
        return Letterbox(frameWidth: image.width, frameHeight: image.height,
                         inputWidth: wide ? long : short, inputHeight: wide ? short : long)
    }

    /// The decoded detections in normalised network-input coordinates (before undoing the letterbox).
    package func detections(in image: BGRAImage, letterbox: Letterbox) throws -> [BlazeFaceDecoder.Detection] {
        guard !image.isEmpty else { return [] }
        let network = try plannedNetwork(batch: 1, width: letterbox.inputWidth, height: letterbox.inputHeight)
        let decoder = decoder(width: letterbox.inputWidth, height: letterbox.inputHeight)
        sampler.fill(network.input(0), from: image, letterbox: letterbox)
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
