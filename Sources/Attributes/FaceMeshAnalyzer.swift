import FaceCore
import Foundation
import NeuralRuntime

/// Runs MediaPipe's face-mesh model (face_landmark.tflite, 468 points) on each detected face and
/// fills, for the attributes selected: raw eye-openness and smile scores (`attributeScores`; the
/// flags come later from `AttributeStabilizer`), `roll` and `yaw`; and always the refined eye
/// and mouth centres and the 468 `landmarks`.
///
/// Each face is cut as MediaPipe does (`FaceMeshCrop`: 1.5 x the box, eyes levelled when the
/// detector gives eyes), sampled to 192 x 192 RGB in [0, 1], and the points mapped back to frame
/// pixels. Faces whose box is below `minFaceSize` or whose crop the model scores below
/// `presenceThreshold` (sigmoid of its face-presence output) are left untouched, with empty
/// attributes. With blink selected, MediaPipe's iris model (`IrisLandmarkModel`) also runs on
/// each eye: the eye openness comes from its lid contour and the eye centres from its iris centres
/// (the mesh's lids hardly close; see docs/attributes.md). One instance per thread.
public final class FaceMeshAnalyzer: FaceAnalyzer {
    /// The model file looked up in the models folder.
    public static let modelFileName = "face_landmark.tflite"
    /// Model input side.
    public static let inputSize = 192

    /// The attributes measured.
    public let selection: AttributeSelection
    /// Minimum face-presence probability of a crop.
    public let presenceThreshold: Double
    /// Faces whose box is narrower or shorter than this many pixels are skipped.
    public let minFaceSize: Double
    /// Crop side over the box's longer side.
    public let cropScale: Double

    private let network: NeuralNetwork
    private let pointsOutput: Int
    private let presenceOutput: Int
    private let irisModel: IrisLandmarkModel?

    /// Loads the mesh model, and the iris model when blink is selected, from the models folder;
    /// throws `ModelError` (one line) when one is missing.
    public convenience init(models: ModelLocator, selection: AttributeSelection) throws {
        let meshPath = try models.path(for: Self.modelFileName)
        let irisPath = selection.contains(.blink) ? try models.path(for: IrisLandmarkModel.modelFileName) : nil
        try self.init(modelPath: meshPath, selection: selection, irisModelPath: irisPath)
    }

    /// Loads the mesh model from `modelPath` (and the iris model from `irisModelPath`, if given:
    /// without it the eye openness is the mesh's eye aspect ratio); throws `ModelError` for a
    /// missing or damaged file and `AttributeError.notFaceMesh` / `.notIrisModel` for a model with
    /// other inputs or outputs.
    public init(modelPath: String, selection: AttributeSelection, irisModelPath: String? = nil,
                presenceThreshold: Double = 0.5, minFaceSize: Double = 24, cropScale: Double = 1.5) throws {
        irisModel = try irisModelPath.map { try IrisLandmarkModel(modelPath: $0) }
        self.selection = selection
        self.presenceThreshold = presenceThreshold
        self.minFaceSize = minFaceSize
        self.cropScale = cropScale
        network = try NeuralNetwork.analyzerModel(at: modelPath)
        let size = Self.inputSize
        guard network.inputShapes.first == [1, size, size, 3],
              let points = network.outputShapes.firstIndex(of: [1, 1, 1, FaceMeshIndex.count * 3]),
              let presence = network.outputShapes.firstIndex(of: [1, 1, 1, 1]) else {
            throw AttributeError.notFaceMesh(path: modelPath, reason: "input \(network.inputShapes), outputs \(network.outputShapes)")
        }
        pointsOutput = points
        presenceOutput = presence
    }

    /// Analyses every face of `image` in place.
    public func analyze(_ faces: inout [FaceObservation], in image: BGRAImage) throws {
        guard !image.isEmpty else { return }
        for i in faces.indices {
            guard let points = landmarks(of: faces[i], in: image), let measures = FaceMeshMeasures(points: points) else {
                continue
            }
            apply(measures, points: points, to: &faces[i])
            if selection.contains(.blink), let irisModel { applyIris(irisModel, points: points, image: image, to: &faces[i]) }
        }
    }

    /// Both eyes through the iris model: openness from its lids, centres from its irises. An eye
    /// the model cannot measure gets no openness (the mesh's ratio has another scale).
    private func applyIris(_ model: IrisLandmarkModel, points: [Point], image: BGRAImage, to face: inout FaceObservation) {
        let left = model.eye(imageLeftCorner: points[FaceMeshIndex.imageLeftEye.outer],
                             imageRightCorner: points[FaceMeshIndex.imageLeftEye.inner], mirrored: false, in: image)
        let right = model.eye(imageLeftCorner: points[FaceMeshIndex.imageRightEye.inner],
                              imageRightCorner: points[FaceMeshIndex.imageRightEye.outer], mirrored: true, in: image)
        face.attributeScores?.leftEyeOpenness = left?.openness
        face.attributeScores?.rightEyeOpenness = right?.openness
        if let left { face.leftEye = left.center }
        if let right { face.rightEye = right.center }
    }

    /// The 468 mesh points of `face` in frame pixels, or `nil` when the face is too small or the
    /// model sees no face in the crop.
    public func landmarks(of face: FaceObservation, in image: BGRAImage) -> [Point]? {
        guard face.isValid, min(face.bounds.width, face.bounds.height) >= minFaceSize else { return nil }
        let crop = FaceMeshCrop(face: face, scale: cropScale, size: Self.inputSize)
        crop.sample(image, into: network.input(0))
        network.run()
        let logit = Double(network.output(presenceOutput)[0])
        guard 1 / (1 + exp(-min(100, max(-100, logit)))) >= presenceThreshold else { return nil }
        let raw = network.output(pointsOutput)
        return (0..<FaceMeshIndex.count).map { k in
            crop.framePoint(x: Double(raw[3 * k]), y: Double(raw[3 * k + 1]))
        }
    }

    /// Writes the measures the selection asks for, plus refined eyes, mouth and landmarks.
    private func apply(_ measures: FaceMeshMeasures, points: [Point], to face: inout FaceObservation) {
        face.leftEye = measures.leftEyeCenter
        face.rightEye = measures.rightEyeCenter
        face.mouth = measures.mouthCenter
        face.landmarks = points
        var scores = FaceAttributeScores()
        if selection.contains(.blink) {
            scores.leftEyeOpenness = measures.leftEyeOpenness
            scores.rightEyeOpenness = measures.rightEyeOpenness
        }
        if selection.contains(.smile) { scores.smile = measures.smileScore }
        if selection.contains(.blink) || selection.contains(.smile) { face.attributeScores = scores }
        if selection.contains(.angle) {
            face.roll = measures.roll
            face.yaw = measures.yaw
        }
    }
}
