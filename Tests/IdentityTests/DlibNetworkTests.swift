import FaceCore
import Foundation
@testable import Identity
import NeuralRuntime
import XCTest

/// dlib's face-recognition ResNet read from its .dat file and run on our runtime, against dlib's
/// own descriptors for the same aligned chips (fixtures from scripts/reference/dlib_embeddings.py).
final class DlibNetworkTests: XCTestCase {
    /// Largest difference allowed in any of the 128 values, and in the distance between ours and
    /// dlib's descriptor of the same chip. dlib (its own CPU kernels) and our runtime sum in different
    /// orders through 29 convolutions, so the outputs agree to about 1e-6 of values near 0.1;
    /// the bounds leave room for other summation orders (e.g. rewritten kernels) while being
    /// far below what any real difference (another alignment, a wrong layer) gives: 0.05 and more.
    static let valueTolerance: Float = 1e-4
    static let distanceTolerance: Float = 2e-4

    private static var model: Result<FaceEmbeddingModel, Error> { IdentityFixtures.embeddingModel }

    func testGraphHasTheNetworksLayers() throws {
        let graph = try Self.model.get().network.graph
        var counts: [String: Int] = [:]
        for operation in graph.operations {
            switch operation.kind {
            case .conv2D: counts["conv", default: 0] += 1
            case .add: counts["add", default: 0] += 1
            case .pad: counts["pad", default: 0] += 1
            case .activation(.relu): counts["relu", default: 0] += 1
            case .maxPool2D: counts["max pool", default: 0] += 1
            case .averagePool2D: counts["average pool", default: 0] += 1
            case .fullyConnected: counts["fc", default: 0] += 1
            default: counts["other", default: 0] += 1
            }
        }
        // 29 convolutions (affines folded in), 14 residual additions; the four downsampling blocks
        // zero-pad their shortcut (more channels, and at level 1 and 0 also a larger picture).
        XCTAssertEqual(counts["conv"], 29)
        XCTAssertEqual(counts["add"], 14)
        XCTAssertEqual(counts["relu"], 1 + 14 + 14, "after the stem, inside each block, after each addition")
        XCTAssertEqual(counts["max pool"], 1)
        XCTAssertEqual(counts["average pool"], 5, "four shortcut poolings and the global one")
        XCTAssertEqual(counts["fc"], 1)
        XCTAssertNil(counts["other"])
        XCTAssertEqual(graph.tensors[graph.inputs[0]].shape, [1, 150, 150, 3])
        XCTAssertEqual(graph.tensors[graph.outputs[0]].shape, [1, 128])
        let parameters = graph.tensors.compactMap(\.constant).reduce(0) { $0 + $1.count }
        XCTAssertEqual(parameters, 5_607_488, "the convolutions' filters and biases and the 256x128 fc weights")
    }

    func testMissingOrDamagedModelIsOneLineNamingTheFile() throws {
        let empty = NSTemporaryDirectory() + "no-models-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        XCTAssertThrowsError(try FaceEmbeddingModel(models: ModelLocator(explicitDirectory: empty))) { error in
            XCTAssertEqual("\(error)", "model file \(FaceEmbeddingModel.fileName) not found in \(empty) (--models); "
                           + "run scripts/setup to download the models")
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: IdentityFixtures.models().path(for: FaceEmbeddingModel.fileName)))
        let damaged = (empty as NSString).appendingPathComponent(FaceEmbeddingModel.fileName)
        try original.prefix(original.count / 3).write(to: URL(fileURLWithPath: damaged))
        XCTAssertThrowsError(try FaceEmbeddingModel(path: damaged)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("model file \(damaged) is damaged (model \(FaceEmbeddingModel.fileName) is "
                                            + "not a valid model file: file ends inside a tensor"), message)
            XCTAssertTrue(message.hasSuffix("run scripts/setup to download it again"), message)
            XCTAssertFalse(message.contains("\n"))
        }
    }

    func testDescriptorsMatchDlibOnItsChips() throws {
        let embedder = try FaceEmbedder(model: Self.model.get())
        let expected = try IdentityFixtures.dlibDescriptors()
        XCTAssertEqual(Set(expected.keys), ["hopper", "astronaut", "noise"])
        for (name, reference) in expected {
            let chip = try IdentityFixtures.ppm("chip_\(name).ppm")
            XCTAssertEqual(chip.width, 150)
            let ours = try XCTUnwrap(embedder.embedding(chipRGB: chip.rgb))
            XCTAssertEqual(ours.values.count, 128)
            let worst = zip(ours.values, reference).map { abs($0 - $1) }.max() ?? .infinity
            let distance = ours.distance(to: FaceEmbedding(values: reference))
            XCTAssertLessThan(worst, Self.valueTolerance, "\(name): largest value difference")
            XCTAssertLessThan(distance, Self.distanceTolerance, "\(name): distance to dlib's descriptor")
            print("dlib agreement \(name): max |difference| \(worst), distance \(distance)")
        }
    }

    /// The network planned for a batch (`FaceEmbedder` runs a face's views as one) gives each image
    /// bit for bit what a one-image network gives it, on every kernel path: the graph's
    /// convolutions, zero-padded shortcuts, additions, max and average poolings and the fully
    /// connected layer all keep the images apart.
    func testBatchOfChipsMatchesEachChipAloneExactly() throws {
        let graph = try Self.model.get().network.graph
        var chips: [[Float]] = []
        for name in ["hopper", "astronaut", "noise"] {
            let rgb: [UInt8] = try IdentityFixtures.ppm("chip_\(name).ppm").rgb
            chips.append(rgb.map { (Float($0) - 128) / 256 })
        }
        let pattern: [Float] = (0..<150 * 150 * 3).map { Float(($0 * 7919) % 251) / 251 - 0.5 }
        chips.append(pattern)
        for path in KernelPath.supported {
            let model = try ResizableNetwork(graph: graph, capacity: 2, kernelPath: path)
            let batch = try model.network(batch: chips.count, height: 150, width: 150)
            XCTAssertEqual(batch.batch, chips.count)
            XCTAssertEqual(batch.outputShapes, [[chips.count, 128]])
            for (slot, chip) in chips.enumerated() { _ = batch.input(0, image: slot).update(from: chip) }
            batch.run()
            // The networks share one arena: the batch's outputs are read before the other runs.
            let batched = chips.indices.map { Array(batch.output(0, image: $0)) }
            let single = try model.network(batch: 1, height: 150, width: 150)
            for (slot, chip) in chips.enumerated() {
                _ = single.input(0).update(from: chip)
                single.run()
                XCTAssertTrue(batched[slot] == Array(single.output(0)), "\(path) chip \(slot)")
            }
        }
    }
}
