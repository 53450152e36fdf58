import FaceCore

/// A box as the Kalman filter measures it (SORT's parameterisation): centre, area and aspect ratio.
package struct BoxMeasurement: Sendable, Equatable {
    /// Centre x in pixels.
    package var centerX: Double
    /// Centre y in pixels.
    package var centerY: Double
    /// Area (`width * height`) in square pixels.
    package var area: Double
    /// Aspect ratio `width / height`.
    package var aspect: Double

    /// Creates a measurement from its four values.
    package init(centerX: Double, centerY: Double, area: Double, aspect: Double) {
        self.centerX = centerX
        self.centerY = centerY
        self.area = area
        self.aspect = aspect
    }

    /// The measurement of a box with positive width and height.
    package init(_ rect: Rect) {
        self.init(centerX: rect.x + rect.width / 2, centerY: rect.y + rect.height / 2,
                  area: rect.width * rect.height, aspect: rect.width / rect.height)
    }

    /// The box back, or `nil` when area or aspect is not a positive finite number.
    package var rect: Rect? {
        guard area > 0, aspect > 0, area.isFinite, aspect.isFinite, centerX.isFinite, centerY.isFinite else { return nil }
        let width = (area * aspect).squareRoot()
        return Rect(centerX: centerX, centerY: centerY, width: width, height: area / width)
    }
}

/// SORT's constant-velocity Kalman filter on a box: state [cx, cy, s, r, vx, vy, vs] (s = area,
/// r = aspect, which has no velocity), measurement [cx, cy, s, r]. Noise values are SORT's
/// published ones. Storage is two fixed-size arrays, updated in place without allocating.
package struct KalmanBoxFilter: Sendable {
    /// Length of the state vector.
    package static let stateCount = 7
    /// Process noise diagonal.
    private static let processNoise: [Double] = [1, 1, 1, 1, 0.01, 0.01, 0.0001]
    /// Measurement noise diagonal.
    private static let measurementNoise: [Double] = [1, 1, 10, 10]
    /// Initial covariance diagonal: velocities start very uncertain.
    private static let initialCovariance: [Double] = [10, 10, 10, 10, 10_000, 10_000, 10_000]

    /// The state [cx, cy, s, r, vx, vy, vs].
    package private(set) var state: [Double]
    /// The 7x7 state covariance, row-major.
    package private(set) var covariance: [Double]

    /// Starts a filter at a measurement, with zero velocity.
    package init(_ measurement: BoxMeasurement) {
        state = [Double](repeating: 0, count: Self.stateCount)
        covariance = [Double](repeating: 0, count: Self.stateCount * Self.stateCount)
        reset(to: measurement)
    }

    /// Forgets everything and restarts at `measurement` with zero velocity.
    package mutating func reset(to measurement: BoxMeasurement) {
        let n = Self.stateCount
        state[0] = measurement.centerX; state[1] = measurement.centerY
        state[2] = measurement.area; state[3] = measurement.aspect
        state[4] = 0; state[5] = 0; state[6] = 0
        for i in 0..<(n * n) { covariance[i] = 0 }
        for i in 0..<n { covariance[i * n + i] = Self.initialCovariance[i] }
    }

    /// Copies state and covariance from another filter into this one's storage.
    package mutating func copy(from other: KalmanBoxFilter) {
        for i in 0..<Self.stateCount { state[i] = other.state[i] }
        for i in 0..<(Self.stateCount * Self.stateCount) { covariance[i] = other.covariance[i] }
    }

    /// The current estimate as a measurement.
    package var measurement: BoxMeasurement {
        BoxMeasurement(centerX: state[0], centerY: state[1], area: state[2], aspect: state[3])
    }

    /// Advances one frame: x = F x, P = F P Fᵀ + Q.
    package mutating func predict() {
        let n = Self.stateCount
        // An area about to turn negative stops shrinking instead (as SORT does).
        if state[2] + state[6] <= 0 { state[6] = 0 }
        state[0] += state[4]; state[1] += state[5]; state[2] += state[6]
        // F = I + E with E[i][i+4] = 1 for i < 3: F P adds rows 4-6 to rows 0-2, then (F P) Fᵀ
        // adds columns 4-6 to columns 0-2. Rows/columns 4-6 are unchanged by either step.
        for i in 0..<3 {
            for j in 0..<n { covariance[i * n + j] += covariance[(i + 4) * n + j] }
        }
        for i in 0..<n {
            for j in 0..<3 { covariance[i * n + j] += covariance[i * n + j + 4] }
        }
        for i in 0..<n { covariance[i * n + i] += Self.processNoise[i] }
    }

    /// Corrects the estimate with a measurement (H = [I₄ 0]). A measurement that would make the
    /// numbers singular or non-finite restarts the filter there instead, so it never holds NaN.
    package mutating func update(_ z: BoxMeasurement) {
        let n = Self.stateCount
        let finite = withUnsafeTemporaryAllocation(of: Double.self, capacity: 16 + 16 + 28 + 28 + 4) { scratch -> Bool in
            let base = scratch.baseAddress!
            let s = base, inverse = base + 16, gain = base + 32, topRows = base + 60, residual = base + 88
            // S = H P Hᵀ + R is the top-left 4x4 block plus the measurement noise.
            for a in 0..<4 {
                for b in 0..<4 { s[a * 4 + b] = covariance[a * n + b] + (a == b ? Self.measurementNoise[a] : 0) }
            }
            guard Self.invert4x4(s, into: inverse) else { return false }
            // K = P Hᵀ S⁻¹ (7x4); P Hᵀ is the first four columns of P.
            for i in 0..<n {
                for b in 0..<4 {
                    var sum = 0.0
                    for a in 0..<4 { sum += covariance[i * n + a] * inverse[a * 4 + b] }
                    gain[i * 4 + b] = sum
                }
            }
            residual[0] = z.centerX - state[0]; residual[1] = z.centerY - state[1]
            residual[2] = z.area - state[2]; residual[3] = z.aspect - state[3]
            for i in 0..<n {
                var sum = 0.0
                for a in 0..<4 { sum += gain[i * 4 + a] * residual[a] }
                state[i] += sum
            }
            // P = P - K H P; H P is the first four rows of P, copied before P changes.
            for i in 0..<28 { topRows[i] = covariance[i] }
            for i in 0..<n {
                for j in 0..<n {
                    var sum = 0.0
                    for a in 0..<4 { sum += gain[i * 4 + a] * topRows[a * n + j] }
                    covariance[i * n + j] -= sum
                }
            }
            // Keep P exactly symmetric against rounding drift.
            for i in 0..<n {
                for j in (i + 1)..<n {
                    let mean = 0.5 * (covariance[i * n + j] + covariance[j * n + i])
                    covariance[i * n + j] = mean; covariance[j * n + i] = mean
                }
            }
            for i in 0..<n where !state[i].isFinite { return false }
            return true
        }
        if !finite { reset(to: z) }
    }

    /// Gauss-Jordan inverse of a 4x4 matrix with partial pivoting; false when singular.
    private static func invert4x4(_ m: UnsafeMutablePointer<Double>, into out: UnsafeMutablePointer<Double>) -> Bool {
        for i in 0..<16 { out[i] = (i % 5 == 0) ? 1 : 0 }
        for col in 0..<4 {
            var pivot = col
            for r in (col + 1)..<4 where abs(m[r * 4 + col]) > abs(m[pivot * 4 + col]) { pivot = r }
            let p = m[pivot * 4 + col]
            guard p.isFinite, abs(p) > 1e-12 else { return false }
            if pivot != col {
                for k in 0..<4 {
                    m.swapAt(pivot * 4 + k, col * 4 + k)
                    out.swapAt(pivot * 4 + k, col * 4 + k)
                }
            }
            let scale = 1 / p
            for k in 0..<4 { m[col * 4 + k] *= scale; out[col * 4 + k] *= scale }
            for r in 0..<4 where r != col {
                let f = m[r * 4 + col]
                if f == 0 { continue }
                for k in 0..<4 { m[r * 4 + k] -= f * m[col * 4 + k]; out[r * 4 + k] -= f * out[col * 4 + k] }
            }
        }
        return true
    }
}

private extension UnsafeMutablePointer where Pointee == Double {
    /// Swaps two elements.
    func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]; self[i] = self[j]; self[j] = t
    }
}
