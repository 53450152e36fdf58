import BenchmarkTiming
import Detection
import FaceCore
import Foundation
import Identity
import MediaIO
import NeuralRuntime

// Face embeddings: their cost and how far apart people are (run through scripts/bench-identity).
//   identity-bench time IMAGE [--runs N] [--models DIR]
//       median milliseconds per face (this thread's CPU time, one core) of the chip alignment, the
//       network, and the whole FaceEmbedder.sample (the views in one batch), against the network run
//       on one view at a time, then the network's slowest kernels.
//   identity-bench distances DIR [--detector centerface|blazeface] [--models DIR] [--threshold X]
//       DIR/PERSON/*.jpg|png: embeds the largest face of each picture and prints, per pair of people,
//       the smallest, median and largest distance, and how many pairs fall on the wrong side of X;
//       then the same for the centroids of galleries of 8 pictures (what re-identification compares).
//   identity-bench known KNOWN_DIR DIR... [--detector NAME] [--threshold X]
//       loads KNOWN_DIR as `--known` does, then names every face in DIR/*.jpg|png: a DIR named like a
//       known person should give that name on its largest face; any other DIR holds strangers (every
//       face counts). Prints, per DIR, faces named right, named wrong, and not named.
//   identity-bench embed DIR [--detector NAME]
//       DIR/CLIP/*.png|jpg: the largest face of each picture as one line: CLIP, picture number,
//       quality, then the 128 values, tab-separated (scripts/identity_corpus.py distances reads them).
//   Every command takes --views plain|mirrored|mirrored-zoomed|mirrored-shifted: the views of each
//   face whose dlib descriptors are averaged (EmbeddingViews; the product's by default). known and
//   shots embed as the product decides identities: the joined embedding (IdentityEmbedder: dlib's
//   standard views and SFace), whatever --views says.
//   embed and time take --model dlib|sface: sface is OpenCV Zoo's SFace (SFaceEmbedder: one view,
//   unit-length values; embed leaves the quality column blank, as
//   scripts/reference/embedding_candidates.py embed writes it, so its compare takes either file).
//   embed --landmarks FACES.csv takes each picture's largest face from a `facetrack detect ... --csv`
//   file (its box, eyes and mouth; pictures named as there) instead of running the detector: the
//   same faces as embedding_candidates.py embed --landmarks.
//   identity-bench shots DIR... [--detector NAME] [--threshold X]
//       each DIR is one shot of one person (frames in name order, 0.5 s apart); between shots a cut
//       ends every track, as the pipeline will. Prints the identity ReidentificationIndex gives each
//       shot's track (confirmed after 3 frames) and whether a split happened inside a shot.

struct Failure: Error, CustomStringConvertible {
    let description: String
}

func largestFace(in image: BGRAImage, detector: FaceDetector) throws -> FaceObservation? {
    try detector.detect(in: image).max { $0.bounds.area < $1.bounds.area }
}

/// The picture at `path` and its largest face (CenterFace), for `time`.
func pictureAndFace(_ path: String, models: ModelLocator) throws -> (image: BGRAImage, face: FaceObservation) {
    let image = try ImageLoader.load(path: path).image
    guard let face = try largestFace(in: image, detector: try CenterFaceDetector(models: models)) else {
        throw Failure(description: "\(path): no face")
    }
    return (image, face)
}

/// `time`'s last lines: the network's six slowest kernels.
func printSlowestKernels(of network: NeuralNetwork, runs: Int) {
    print("  slowest kernels (ms per run):")
    for (kernel, milliseconds) in network.profileKernels(runs: max(3, runs / 4)).prefix(6) {
        print("    \(kernel.padding(toLength: 24, withPad: " ", startingAt: 0))" + String(format: "%7.3f", milliseconds))
    }
}

func timeOnePicture(_ path: String, runs: Int, models: ModelLocator, views: EmbeddingViews) throws {
    let (image, face) = try pictureAndFace(path, models: models)
    var model: FaceEmbeddingModel?
    let reading = try Timing.medianThreadMilliseconds(runs: 1) { model = try FaceEmbeddingModel(models: models) }
    var prepared: FaceEmbedder?
    let preparing = try Timing.medianThreadMilliseconds(runs: 1) { prepared = try FaceEmbedder(model: model!, views: views) }
    guard let embedder = prepared else { throw Failure(description: "no embedder") }
    guard let chip = FaceChip(face: face) else { throw Failure(description: "\(path): the face has no eyes") }
    var pixels = [Float](repeating: 0, count: FaceChip.size * FaceChip.size * 3)
    let alignment = Timing.medianThreadMilliseconds(runs: runs) { pixels.withUnsafeMutableBufferPointer { chip.sample(image, into: $0) } }
    let whole = Timing.medianThreadMilliseconds(runs: runs) { _ = embedder.sample(of: face, in: image) }
    let viewByView = Timing.medianThreadMilliseconds(runs: runs) { _ = embedder.embeddingViewByView(of: face, in: image) }
    let network = try NeuralNetwork(graph: DlibReader.faceRecognitionResNet(contentsOf: try models.path(
        for: FaceEmbeddingModel.fileName)).graph)
    let run = Timing.medianThreadMilliseconds(runs: runs) { network.run() }
    // The network on a batch of the views' count, as `FaceEmbedder` runs it (inputs left zero).
    let batch = try ResizableNetwork(graph: DlibReader.faceRecognitionResNet(contentsOf: try models.path(
        for: FaceEmbeddingModel.fileName)).graph).network(batch: views.views.count, height: FaceChip.size, width: FaceChip.size)
    let batchRun = Timing.medianThreadMilliseconds(runs: runs) { batch.run() }
    print(String(format: "start-up: model read %.0f ms, embedder prepared %.0f ms (once per thread)", reading, preparing))
    print(String(format: "face %.0f px wide, %d runs, one core:", face.bounds.width, runs))
    print(String(format: "  chip alignment   %7.3f ms", alignment))
    print(String(format: "  network          %7.3f ms", run))
    print(String(format: "  network, batch of %d %6.3f ms (%.3f ms per image)", views.views.count, batchRun,
                 batchRun / Double(views.views.count)))
    print(String(format: "  embedding total  %7.3f ms per face (target <= 25; %d views in one batch)", whole, views.views.count))
    print(String(format: "  one view at a time %5.3f ms per face (the network run per view, no quality score)", viewByView))
    printSlowestKernels(of: network, runs: runs)
}

/// `time` for SFace: alignment, network and the whole embedding per face, this thread's CPU time.
func timeSFace(_ path: String, runs: Int, models: ModelLocator) throws {
    let (image, face) = try pictureAndFace(path, models: models)
    var model: SFaceModel?
    let reading = try Timing.medianThreadMilliseconds(runs: 1) { model = try SFaceModel(models: models) }
    var prepared: SFaceEmbedder?
    let preparing = try Timing.medianThreadMilliseconds(runs: 1) { prepared = try SFaceEmbedder(model: model!) }
    guard let embedder = prepared, let chip = SFaceChip(face: face) else {
        throw Failure(description: "\(path): the face has no eyes or mouth")
    }
    var pixels = [Float](repeating: 0, count: SFaceChip.size * SFaceChip.size * 3)
    let alignment = Timing.medianThreadMilliseconds(runs: runs) {
        pixels.withUnsafeMutableBufferPointer { chip.sample(image, into: $0) }
    }
    let whole = Timing.medianThreadMilliseconds(runs: runs) { _ = embedder.embedding(of: face, in: image) }
    let network = try NeuralNetwork(graph: try ONNXReader.graph(contentsOf: try models.path(for: SFaceModel.fileName)))
    let run = Timing.medianThreadMilliseconds(runs: runs) { network.run() }
    print(String(format: "start-up: model read %.0f ms, embedder prepared %.0f ms (once per thread)", reading, preparing))
    print(String(format: "sface, face %.0f px wide, %d runs, one core:", face.bounds.width, runs))
    print(String(format: "  chip alignment   %7.3f ms", alignment))
    print(String(format: "  network          %7.3f ms", run))
    print(String(format: "  embedding total  %7.3f ms per face", whole))
    printSlowestKernels(of: network, runs: runs)
}

func distances(_ folder: String, detectorName: String, threshold: Float, models: ModelLocator,
               views: EmbeddingViews) throws {
    guard let detector = try DetectionSettings(detector: DetectorKind(name: detectorName) ?? .centerface(), models: models).makeDetector()
    else { throw Failure(description: "distances need a detector") }
    let embedder = try FaceEmbedder(model: try FaceEmbeddingModel(models: models), views: views)
    let manager = FileManager.default
    var people: [(name: String, embeddings: [FaceEmbedding])] = []
    for person in try manager.contentsOfDirectory(atPath: folder).sorted() {
        let directory = (folder as NSString).appendingPathComponent(person)
        var embeddings: [FaceEmbedding] = []
        var missed = 0
        for file in (try? manager.contentsOfDirectory(atPath: directory))?.sorted() ?? []
        where ["jpg", "jpeg", "png"].contains((file as NSString).pathExtension.lowercased()) {
            let image = try ImageLoader.load(path: (directory as NSString).appendingPathComponent(file)).image
            if let face = try largestFace(in: image, detector: detector),
               let embedding = embedder.embedding(of: face, in: image) {
                embeddings.append(embedding)
            } else {
                missed += 1
            }
        }
        if !embeddings.isEmpty { people.append((person, embeddings)) }
        print("\(person): \(embeddings.count) faces embedded\(missed > 0 ? ", \(missed) pictures without a face" : "")")
    }
    print(String(format: "distances (threshold %.2f): smallest / median / largest, pairs on the wrong side", threshold))
    for (i, a) in people.enumerated() {
        for b in people[i...] {
            var values: [Float] = []
            for (x, first) in a.embeddings.enumerated() {
                for (y, second) in b.embeddings.enumerated() where a.name != b.name || y > x {
                    values.append(first.distance(to: second))
                }
            }
            guard !values.isEmpty else { continue }
            values.sort()
            let same = a.name == b.name
            let wrong = values.filter { same ? $0 >= threshold : $0 < threshold }.count
            print(String(format: "  %@ %-12@ %-12@ %.3f / %.3f / %.3f  %d of %d", same ? "same" : "diff",
                         a.name as NSString, b.name as NSString, values[0], values[values.count / 2],
                         values[values.count - 1], wrong, values.count))
        }
    }
    // What re-identification compares: the centroids of galleries of up to 8 pictures. Each
    // person's pictures in order, cut into runs of 8: same person between runs, others across.
    func galleries(_ embeddings: [FaceEmbedding]) -> [TrackGallery] {
        stride(from: 0, to: embeddings.count, by: 8).map { start in
            var gallery = TrackGallery()
            for embedding in embeddings[start..<min(embeddings.count, start + 8)] {
                gallery.add(FaceSample(embedding: embedding, quality: 1))
            }
            return gallery
        }
    }
    print("gallery centroids (runs of up to 8 pictures): smallest / largest distance")
    for (i, a) in people.enumerated() {
        for b in people[i...] {
            let first = galleries(a.embeddings), second = galleries(b.embeddings)
            var values: [Float] = []
            for (x, g) in first.enumerated() {
                for (y, h) in second.enumerated() where a.name != b.name || y > x { values.append(g.distance(to: h) ?? 0) }
            }
            // One picture against a run of the other (a track just confirmed with a single sample).
            var single: [Float] = []
            for (x, g) in first.enumerated() {
                for (y, h) in second.enumerated() where a.name != b.name || y != x {
                    single += g.samples.compactMap { h.distance(to: $0.embedding) }
                }
            }
            guard let low = values.min(), let high = values.max(), let lowSingle = single.min(),
                  let highSingle = single.max() else { continue }
            print(String(format: "  %@ %-12@ %-12@ %.3f / %.3f  (%d pairs); one picture: %.3f / %.3f",
                         a.name == b.name ? "same" : "diff", a.name as NSString, b.name as NSString, low, high,
                         values.count, lowSingle, highSingle))
        }
    }
}

/// The largest face of each picture of a `facetrack detect` CSV (box, eyes and mouth), by picture path.
func landmarkFaces(_ path: String) throws -> [String: FaceObservation] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw Failure(description: "cannot read \(path) as UTF-8 text")
    }
    var lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    guard let header = lines.first else { throw Failure(description: "\(path): empty") }
    lines.removeFirst()
    func column(_ name: String) throws -> Int {
        guard let index = header.firstIndex(of: name) else { throw Failure(description: "\(path): no column \(name)") }
        return index
    }
    let image = try column("image"), x = try column("x"), y = try column("y"), width = try column("width"),
        height = try column("height"), confidence = try column("confidence")
    let points = try ["left_eye", "right_eye", "mouth"].map { (try column($0 + "_x"), try column($0 + "_y")) }
    var faces: [String: FaceObservation] = [:]
    for fields in lines where fields.count == header.count {
        guard let box = [x, y, width, height, confidence].map({ Double(fields[$0]) }) as? [Double] else { continue }
        let landmarks = points.map { (Double(fields[$0.0]), Double(fields[$0.1])) }
        guard landmarks.allSatisfy({ $0.0 != nil && $0.1 != nil }) else { continue }
        var face = FaceObservation(bounds: Rect(x: box[0], y: box[1], width: box[2], height: box[3]), confidence: box[4])
        face.leftEye = Point(x: landmarks[0].0!, y: landmarks[0].1!)
        face.rightEye = Point(x: landmarks[1].0!, y: landmarks[1].1!)
        face.mouth = Point(x: landmarks[2].0!, y: landmarks[2].1!)
        if let other = faces[fields[image]], other.bounds.area >= face.bounds.area { continue }
        faces[fields[image]] = face
    }
    return faces
}

func embed(_ folder: String, detectorName: String, models: ModelLocator, views: EmbeddingViews, sface: Bool,
           landmarks: String?) throws {
    guard let detector = try DetectionSettings(detector: DetectorKind(name: detectorName) ?? .centerface(), models: models).makeDetector()
    else { throw Failure(description: "embed needs a detector") }
    let given = try landmarks.map(landmarkFaces)
    let embedder = sface ? nil : try FaceEmbedder(model: try FaceEmbeddingModel(models: models), views: views)
    let second = sface ? try SFaceEmbedder(model: try SFaceModel(models: models)) : nil
    let manager = FileManager.default
    for clip in try manager.contentsOfDirectory(atPath: folder).sorted() {
        let directory = (folder as NSString).appendingPathComponent(clip)
        for (number, file) in ((try? manager.contentsOfDirectory(atPath: directory)) ?? []).sorted().enumerated()
        where ["jpg", "jpeg", "png"].contains((file as NSString).pathExtension.lowercased()) {
            let path = (directory as NSString).appendingPathComponent(file)
            if let given, given[path] == nil { continue }
            let image = try ImageLoader.load(path: path).image
            guard let face = try given?[path] ?? largestFace(in: image, detector: detector) else { continue }
            if let second {
                guard let embedding = second.embedding(of: face, in: image) else { continue }
                print(([clip, String(number), ""] + embedding.values.map { String(format: "%.5f", $0) }).joined(separator: "\t"))
                continue
            }
            guard let sample = embedder?.sample(of: face, in: image) else { continue }
            print(([clip, String(number), String(format: "%.4f", sample.quality)]
                   + sample.embedding.values.map { String(format: "%.5f", $0) }).joined(separator: "\t"))
        }
    }
}

func known(_ knownFolder: String, pictures: [String], detectorName: String, threshold: Float,
           models: ModelLocator, views: EmbeddingViews) throws {
    guard let detector = try DetectionSettings(detector: DetectorKind(name: detectorName) ?? .centerface(), models: models).makeDetector()
    else { throw Failure(description: "naming needs a detector") }
    // Named as the product names: the joined embedding (dlib's standard views and SFace).
    let embedder = try IdentityEmbedder(models: try IdentityModels(models: models))
    let people = try KnownPeople.load(folder: knownFolder, embedder: embedder, threshold: threshold,
                                      loadImage: { try ImageLoader.load(path: $0).image },
                                      detect: { try detector.detect(in: $0) })
    print("known: \(people.names.joined(separator: ", ")); threshold \(threshold)")
    for folder in pictures {
        let expected = (folder as NSString).lastPathComponent
        let isKnown = people.names.contains(expected)
        var right = 0, wrong = 0, unnamed = 0
        var wrongNames: [String: Int] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        where ["jpg", "jpeg", "png"].contains((file as NSString).pathExtension.lowercased()) {
            let image = try ImageLoader.load(path: (folder as NSString).appendingPathComponent(file)).image
            var faces = try detector.detect(in: image)
            if isKnown { faces = Array(faces.sorted { $0.bounds.area > $1.bounds.area }.prefix(1)) }
            for face in faces {
                guard let embedding = embedder.embedding(of: face, in: image) else { continue }
                switch people.match(embedding)?.name {
                case nil: unnamed += 1
                case expected?: right += 1
                case let other?:
                    wrong += 1
                    wrongNames[other, default: 0] += 1
                }
            }
        }
        print("  \(expected) (\(isKnown ? "known" : "strangers")): \(right) named right, \(wrong) named wrong"
              + "\(wrongNames.isEmpty ? "" : " \(wrongNames)"), \(unnamed) not named")
    }
}

func shots(_ folders: [String], detectorName: String, threshold: Float, models: ModelLocator,
           views: EmbeddingViews) throws {
    guard let detector = try DetectionSettings(detector: DetectorKind(name: detectorName) ?? .centerface(), models: models).makeDetector()
    else { throw Failure(description: "shots need a detector") }
    // Decided as the product decides: the joined embedding (dlib's standard views and SFace).
    let embedder = try IdentityEmbedder(models: try IdentityModels(models: models))
    var settings = ReidentificationSettings()
    settings.threshold = threshold
    var index = ReidentificationIndex(settings: settings)
    var time = 0.0
    for (shot, folder) in folders.enumerated() {
        index.endAll()
        var decision: IdentityDecision?
        var splits = 0, frames = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        where ["jpg", "jpeg", "png"].contains((file as NSString).pathExtension.lowercased()) {
            let image = try ImageLoader.load(path: (folder as NSString).appendingPathComponent(file)).image
            time += 0.5
            guard let face = try largestFace(in: image, detector: detector) else { continue }
            frames += 1
            if index.observe(track: shot, sample: embedder.sample(of: face, in: image), time: time) != nil { splits += 1 }
            if frames == 3 { decision = index.confirm(track: shot, time: time) }
        }
        let name = (folder as NSString).lastPathComponent
        let shown = decision.map { "identity \($0.identity)" + ($0.distance.map { String(format: " (continued, %.3f)", $0) } ?? " (new)") }
        print("shot \(shot + 1) \(name): \(shown ?? "no track"), \(frames) frames, \(splits) splits, now identity "
              + "\(index.identity(of: shot).map(String.init) ?? "-")")
    }
}

var arguments = CommandLine.arguments.dropFirst().makeIterator()
var positional: [String] = []
var runs = 40
var modelsFolder: String?
var detectorName = "centerface"
var threshold: Float = 0.5
var views = EmbeddingViews.standard
var modelName = "dlib"
var landmarksFile: String?
while let argument = arguments.next() {
    switch argument {
    case "--landmarks": landmarksFile = arguments.next()
    case "--model":
        modelName = arguments.next() ?? ""
        guard ["dlib", "sface"].contains(modelName) else {
            FileHandle.standardError.write("identity-bench: error: --model \(modelName): dlib or sface\n".data(using: .utf8)!)
            exit(2)
        }
    case "--runs": runs = max(1, arguments.next().flatMap(Int.init) ?? runs)
    case "--models": modelsFolder = arguments.next()
    case "--detector": detectorName = arguments.next() ?? detectorName
    case "--threshold": threshold = arguments.next().flatMap(Float.init) ?? threshold
    case "--views":
        let name = arguments.next() ?? ""
        guard let named = EmbeddingViews(name: name) else {
            let message = "identity-bench: error: --views \(name): plain, mirrored, mirrored-zoomed or mirrored-shifted\n"
            FileHandle.standardError.write(message.data(using: .utf8)!)
            exit(2)
        }
        views = named
    default: positional.append(argument)
    }
}
do {
    let models = ModelLocator(explicitDirectory: modelsFolder)
    if modelName == "sface", !["time", "embed"].contains(positional.first ?? "") {
        let message = "identity-bench: error: --model sface works with embed and time only\n"
        FileHandle.standardError.write(message.data(using: .utf8)!)
        exit(2)
    }
    switch (positional.first, positional.count) {
    case ("time", 2) where modelName == "sface": try timeSFace(positional[1], runs: runs, models: models)
    case ("time", 2): try timeOnePicture(positional[1], runs: runs, models: models, views: views)
    case ("embed", 2):
        try embed(positional[1], detectorName: detectorName, models: models, views: views, sface: modelName == "sface",
                  landmarks: landmarksFile)
    case ("distances", 2):
        try distances(positional[1], detectorName: detectorName, threshold: threshold, models: models, views: views)
    case ("shots", 2...):
        try shots(Array(positional[1...]), detectorName: detectorName, threshold: threshold == 0.5 ? 0.4 : threshold,
                  models: models, views: views)
    case ("known", 3...):
        try known(positional[1], pictures: Array(positional[2...]), detectorName: detectorName, threshold: threshold,
                  models: models, views: views)
    default:
        let usage = "usage: identity-bench time IMAGE [--runs N] | embed DIR [--landmarks CSV] | distances DIR | "
            + "known KNOWN_DIR DIR... [--detector NAME] [--threshold X] [--model dlib|sface]\n"
        FileHandle.standardError.write(usage.data(using: .utf8)!)
        exit(2)
    }
} catch {
    FileHandle.standardError.write("identity-bench: error: \(error)\n".data(using: .utf8)!)
    exit(1)
}
