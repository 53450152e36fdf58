import Foundation
import Synchronization

/// A model file's graph and packed weights, read once while any network uses them: the detectors
/// of a run's lanes and its look-back (one per thread) share them instead of each holding its own
/// copy (CenterFace: 7 MB of weights read and 7 MB packed per detector).
package final class LoadedModel: Sendable {
    package let graph: GraphDescription
    /// Packed weights per kernel path (packing depends on it).
    private let packed = Mutex<[(path: KernelPath, weights: PackedWeights)]>([])

    private init(graph: GraphDescription) {
        self.graph = graph
    }

    /// The weights packed for `path`, shared by every network of this model on that path.
    package func weights(for path: KernelPath) -> PackedWeights {
        packed.withLock { packed in
            if let found = packed.first(where: { $0.path == path }) { return found.weights }
            let made = PackedWeights()
            packed.append((path, made))
            return made
        }
    }

    private final class Entry: Sendable {
        weak let model: LoadedModel?
        init(_ model: LoadedModel) { self.model = model }
    }

    /// The models in use, by file path, size and modification time (a file replaced on disk is read again).
    private static let loaded = Mutex<[String: Entry]>([:])

    /// The model at `path`, read by `read` unless one still in use was read from the same file.
    package static func load(path: String, read: (String) throws -> GraphDescription) throws -> LoadedModel {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
        let key = "\(path)\u{0}\(size)\u{0}\(modified)"
        if let model = loaded.withLock({ $0[key]?.model }) { return model }
        let model = LoadedModel(graph: try read(path))
        return loaded.withLock { loaded in
            if let other = loaded[key]?.model { return other }
            loaded = loaded.filter { $0.value.model != nil }
            loaded[key] = Entry(model)
            return model
        }
    }
}
