import FaceCore
import NeuralRuntime

/// MediaPipe's iris model (iris_landmark.tflite) on the in-project runtime: for one eye, given its
/// two corners from the face mesh, cuts the eye crop (`FaceMeshCrop(eyeFrom:to:)`: 2.3 x the corner
/// distance, square, turned along the corner line, the image-right eye mirrored so it looks like
/// the image-left eye the model was trained on), samples it to 64 x 64 RGB in [0, 1], runs the
/// model and maps its 71 contour and 5 iris points back to frame pixels. One instance per thread.
package final class IrisLandmarkModel {
    /// The model file looked up in the models folder.
    package static let modelFileName = "iris_landmark.tflite"
    /// Model input side.
    package static let inputSize = 64
    /// Crop side over the eye-corner distance.
    package static let cropScale = 2.3

    private let network: NeuralNetwork
    private let contourOutput: Int
    private let irisOutput: Int

    /// Loads the model; throws `ModelError` for a missing or damaged file and
    /// `AttributeError.notIrisModel` for a model with other inputs or outputs.
    package init(modelPath: String) throws {
        network = try NeuralNetwork.analyzerModel(at: modelPath)
        let size = Self.inputSize
        guard network.inputShapes.first == [1, size, size, 3],
              let contour = network.outputShapes.firstIndex(of: [1, IrisIndex.contourCount * 3]),
              let iris = network.outputShapes.firstIndex(of: [1, IrisIndex.irisCount * 3]) else {
            throw AttributeError.notIrisModel(path: modelPath, reason: "input \(network.inputShapes), outputs \(network.outputShapes)")
        }
        contourOutput = contour
        irisOutput = iris
    }

    /// The crop the model sees for the eye between `imageLeftCorner` and `imageRightCorner`;
    /// `mirrored` for the eye on the image's right.
    package static func crop(imageLeftCorner: Point, imageRightCorner: Point, mirrored: Bool) -> FaceMeshCrop {
        FaceMeshCrop(eyeFrom: imageLeftCorner, to: imageRightCorner, scale: cropScale, size: inputSize, mirrored: mirrored)
    }

    /// Runs the model on one eye; `nil` for degenerate corners or non-finite output.
    package func eye(imageLeftCorner: Point, imageRightCorner: Point, mirrored: Bool, in image: BGRAImage) -> IrisEye? {
        guard imageLeftCorner.isFinite, imageRightCorner.isFinite,
              imageLeftCorner.distance(to: imageRightCorner) > 1 else { return nil }
        let crop = Self.crop(imageLeftCorner: imageLeftCorner, imageRightCorner: imageRightCorner, mirrored: mirrored)
        crop.sample(image, into: network.input(0))
        network.run()
        return IrisEye(contour: points(network.output(contourOutput), count: IrisIndex.contourCount, crop: crop),
                       iris: points(network.output(irisOutput), count: IrisIndex.irisCount, crop: crop))
    }

    /// The first `count` x, y pairs of an (x, y, z) output in frame pixels.
    private func points(_ raw: UnsafeBufferPointer<Float>, count: Int, crop: FaceMeshCrop) -> [Point] {
        guard raw.count >= 3 * count else { return [] }
        return (0..<count).map { k in crop.framePoint(x: Double(raw[3 * k]), y: Double(raw[3 * k + 1])) }
    }
}
