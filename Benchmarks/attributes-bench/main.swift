import Attributes
import BenchmarkTiming
import Detection
import FaceCore
import Foundation
import MediaIO
import NeuralRuntime

// Where the time of --attributes goes, per face: attributes-bench IMAGE [--runs N] [--models DIR].
// Pastes IMAGE (a portrait) into a 1280x720 grey frame, detects the face once, then prints the
// median milliseconds (this thread's CPU time) of the crop sampling alone, of the whole
// FaceMeshAnalyzer.analyze per face (sampling, mesh inference, mapping, measures, and with blink the
// iris model on both eyes), and of the iris model on one eye.

var arguments = CommandLine.arguments.dropFirst().makeIterator()
var imagePath: String?
var runs = 200
var modelsFolder: String?
while let argument = arguments.next() {
    switch argument {
    case "--runs": runs = max(1, arguments.next().flatMap(Int.init) ?? runs)
    case "--models": modelsFolder = arguments.next()
    default: imagePath = argument
    }
}
guard let imagePath else {
    FileHandle.standardError.write("usage: attributes-bench IMAGE [--runs N] [--models DIR]\n".data(using: .utf8)!)
    exit(2)
}
do {
    let models = ModelLocator(explicitDirectory: modelsFolder)
    let portrait = try ImageLoader.load(path: imagePath).image
    let frame = BGRAImage(width: 1280, height: 720)
    frame.fill(b: 128, g: 128, r: 128)
    for y in 0..<min(portrait.height, 720) {
        (frame.row(y + (720 - min(portrait.height, 720)) / 2) + 400 * 4).update(from: portrait.row(y), count: min(portrait.width, 880) * 4)
    }
    let detector = try BlazeFaceDetector(models: models)
    let analyzer = try FaceMeshAnalyzer(models: models, selection: .all)
    let faces = try detector.detect(in: frame)
    guard let face = faces.first else { throw ModelError.damaged(path: imagePath, reason: "no face found") }
    var input = [Float](repeating: 0, count: 192 * 192 * 3)
    let crop = FaceMeshCrop(face: face)
    let sampling = Timing.medianThreadMilliseconds(runs: runs) { input.withUnsafeMutableBufferPointer { crop.sample(frame, into: $0) } }
    let whole = try Timing.medianThreadMilliseconds(runs: runs) {
        var copy = [face]
        try analyzer.analyze(&copy, in: frame)
    }
    let iris = try IrisLandmarkModel(modelPath: try models.path(for: IrisLandmarkModel.modelFileName))
    var analysed = [face]
    try analyzer.analyze(&analysed, in: frame)
    guard let points = analysed.first?.landmarks else { throw ModelError.damaged(path: imagePath, reason: "no mesh") }
    let eye = Timing.medianThreadMilliseconds(runs: runs) {
        _ = iris.eye(imageLeftCorner: points[33], imageRightCorner: points[133], mirrored: false, in: frame)
    }
    print(String(format: "face %.0f px: crop sampling %.3f ms, analyze (sample + mesh + measures + iris on both eyes) %.3f ms per face; iris model %.3f ms per eye",
                 face.bounds.width, sampling, whole, eye))
    if let network = try? NeuralNetwork(tfliteFile: try models.path(for: IrisLandmarkModel.modelFileName)) {
        let profile = network.profileKernels(runs: runs).map { String(format: "%@ %.3f", $0.kernel, $0.milliseconds) }
        print("iris model per kernel (ms): " + profile.joined(separator: ", "))
    }
} catch {
    FileHandle.standardError.write("attributes-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
