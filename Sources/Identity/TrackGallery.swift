/// The best embeddings of one person seen in a track: at most `capacity` samples, the highest
/// `FaceSample.quality` kept, so memory stays fixed however long the track runs.
package struct TrackGallery: Sendable, Equatable {
    /// Default number of samples kept (8 x 128 floats, 4 KB).
    package static let defaultCapacity = 8

    /// How many samples are kept.
    package let capacity: Int
    /// The kept samples, best first.
    package private(set) var samples: [FaceSample] = []
    /// The mean of the kept embeddings (nil while empty): what other galleries are compared with.
    package private(set) var centroid: FaceEmbedding?

    /// An empty gallery.
    package init(capacity: Int = TrackGallery.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// True before the first sample.
    package var isEmpty: Bool { samples.isEmpty }

    /// Keeps `sample` if the gallery has room or it beats the worst kept one.
    package mutating func add(_ sample: FaceSample) {
        if samples.count == capacity {
            guard let worst = samples.last, sample.quality > worst.quality else { return }
            samples.removeLast()
        }
        let position = samples.firstIndex { $0.quality < sample.quality } ?? samples.count
        samples.insert(sample, at: position)
        centroid = FaceEmbedding.mean(samples.map(\.embedding))
    }

    /// Forgets the samples taken at `time` or later (pictures of a transition that mixed two people).
    package mutating func removeSamples(since time: Double) {
        samples.removeAll { $0.time >= time }
        centroid = samples.isEmpty ? nil : FaceEmbedding.mean(samples.map(\.embedding))
    }

    /// Forgets the samples of lower quality than `quality`.
    package mutating func removeSamples(below quality: Double) {
        samples.removeAll { $0.quality < quality }
        centroid = samples.isEmpty ? nil : FaceEmbedding.mean(samples.map(\.embedding))
    }

    /// Adds every sample of `other` (the best `capacity` of both remain).
    package mutating func merge(_ other: TrackGallery) {
        for sample in other.samples { add(sample) }
    }

    /// The distance between the two galleries' centroids (nil when either is empty).
    package func distance(to other: TrackGallery) -> Float? {
        guard let centroid, let other = other.centroid else { return nil }
        return centroid.distance(to: other)
    }

    /// The distance from this gallery's centroid to `embedding` (nil while empty).
    package func distance(to embedding: FaceEmbedding) -> Float? {
        centroid?.distance(to: embedding)
    }
}
