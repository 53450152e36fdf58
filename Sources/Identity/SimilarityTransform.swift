import FaceCore

/// A 2-D similarity (rotation, uniform scale, translation, no mirroring):
/// x' = a x - b y + tx, y' = b x + a y + ty.
package struct SimilarityTransform: Sendable, Equatable {
    /// Scale times the cosine of the rotation.
    package var a: Double
    /// Scale times the sine of the rotation.
    package var b: Double
    /// Horizontal translation.
    package var tx: Double
    /// Vertical translation.
    package var ty: Double

    /// Creates a transform from its four parameters.
    package init(a: Double, b: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.tx = tx
        self.ty = ty
    }

    /// The least-squares similarity taking `source[i]` to `target[i]` (nil for fewer than two
    /// pairs, mismatched counts or coincident source points). With points as complex numbers,
    /// centred on their means, the rotation-and-scale factor is sum(conj(p) q) / sum(|p|^2).
    package init?(from source: [Point], to target: [Point]) {
        guard source.count == target.count, source.count >= 2 else { return nil }
        let n = Double(source.count)
        let sourceMean = Point(x: source.map(\.x).reduce(0, +) / n, y: source.map(\.y).reduce(0, +) / n)
        let targetMean = Point(x: target.map(\.x).reduce(0, +) / n, y: target.map(\.y).reduce(0, +) / n)
        var real = 0.0, imaginary = 0.0, norm = 0.0
        for (p, q) in zip(source, target) {
            let px = p.x - sourceMean.x, py = p.y - sourceMean.y
            let qx = q.x - targetMean.x, qy = q.y - targetMean.y
            real += px * qx + py * qy
            imaginary += px * qy - py * qx
            norm += px * px + py * py
        }
        guard norm > 1e-9, real.isFinite, imaginary.isFinite else { return nil }
        a = real / norm
        b = imaginary / norm
        tx = targetMean.x - (a * sourceMean.x - b * sourceMean.y)
        ty = targetMean.y - (b * sourceMean.x + a * sourceMean.y)
    }

    /// The scale factor.
    package var scale: Double { (a * a + b * b).squareRoot() }

    /// Where `point` goes.
    package func apply(_ point: Point) -> Point {
        Point(x: a * point.x - b * point.y + tx, y: b * point.x + a * point.y + ty)
    }

    /// The transform that undoes this one (nil when the scale is zero).
    package var inverse: SimilarityTransform? {
        let norm = a * a + b * b
        guard norm > 0, norm.isFinite else { return nil }
        let ia = a / norm, ib = -b / norm
        return SimilarityTransform(a: ia, b: ib, tx: -(ia * tx - ib * ty), ty: -(ib * tx + ia * ty))
    }
}
