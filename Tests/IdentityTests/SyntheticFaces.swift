@testable import Identity

/// Made-up embeddings for the identity logic: each person a fixed random direction of length 1,
/// each picture of them that direction plus small noise. Two people lie about 1.4 apart, two
/// pictures of one person about 0.15 (like dlib's: under 0.6 and well over it).
struct SyntheticFaces {
    private var state: UInt64

    init(seed: UInt64 = 1) {
        state = seed
    }

    private mutating func uniform() -> Float {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(state >> 40) / Float(1 << 24) * 2 - 1
    }

    /// A person: a unit vector of 128 values.
    mutating func person() -> FaceEmbedding {
        let values = (0..<128).map { _ in uniform() }
        let length = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return FaceEmbedding(values: values.map { $0 / length })
    }

    /// A picture of `person`: each value moved by up to `noise` / sqrt(128) * 1.7.
    mutating func picture(of person: FaceEmbedding, noise: Float = 0.15, quality: Double = 0.8) -> FaceSample {
        let scale = noise / Float(128).squareRoot() * 1.7
        return FaceSample(embedding: FaceEmbedding(values: person.values.map { $0 + uniform() * scale }), quality: quality)
    }
}
