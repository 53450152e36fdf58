/// A face descriptor: the 128 numbers dlib's face-recognition network gives for an aligned face.
/// Two photos of the same person lie close together: dlib's own rule of thumb is a Euclidean
/// distance under 0.6 for the same person (99.38% right on the LFW benchmark).
package struct FaceEmbedding: Sendable, Equatable {
    /// The descriptor's values (128 for dlib's network).
    package var values: [Float]

    /// Wraps descriptor values.
    package init(values: [Float]) {
        self.values = values
    }

    /// The Euclidean distance to `other` (infinity when the lengths differ).
    package func distance(to other: FaceEmbedding) -> Float {
        guard values.count == other.values.count else { return .infinity }
        var sum: Float = 0
        for index in values.indices {
            let difference = values[index] - other.values[index]
            sum += difference * difference
        }
        return sum.squareRoot()
    }

    /// The element-wise mean of `embeddings` (nil when empty or of mixed lengths): the centre of
    /// several pictures of one face, steadier than any one of them.
    package static func mean(_ embeddings: [FaceEmbedding]) -> FaceEmbedding? {
        guard let first = embeddings.first, embeddings.allSatisfy({ $0.values.count == first.values.count }) else {
            return nil
        }
        var sum = [Float](repeating: 0, count: first.values.count)
        for embedding in embeddings {
            for index in sum.indices { sum[index] += embedding.values[index] }
        }
        let scale = 1 / Float(embeddings.count)
        return FaceEmbedding(values: sum.map { $0 * scale })
    }
}

/// An embedding of one face on one frame and how good a picture of the face it came from.
package struct FaceSample: Sendable, Equatable {
    /// The descriptor.
    package var embedding: FaceEmbedding
    /// 0...1, higher for larger, sharper, more frontal faces (`FaceQuality`); ranks one track's samples.
    package var quality: Double
    /// When it was taken (seconds of video; set by `ReidentificationIndex.observe`).
    package var time: Double

    /// Creates a sample.
    package init(embedding: FaceEmbedding, quality: Double, time: Double = 0) {
        self.embedding = embedding
        self.quality = quality
        self.time = time
    }
}
