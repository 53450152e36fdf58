/// The One Euro filter (Casiez, Roussel and Vogel, CHI 2012): a low-pass filter whose cutoff rises
/// with the signal's speed, so a still signal is steady and a moving one lags little.
///
/// `speedScale` divides the speed before it raises the cutoff; the tracker passes the face height,
/// so `beta` is per face height per second and the same settings suit every resolution.
package struct OneEuroFilter: Sendable {
    /// Cutoff frequency in Hz at zero speed.
    package var minCutoff: Double
    /// How much the cutoff rises per unit of (scaled) speed.
    package var beta: Double
    /// Cutoff frequency in Hz for the speed estimate.
    package var derivativeCutoff: Double

    private var previousValue = 0.0
    private var previousDerivative = 0.0
    private var started = false

    /// Creates a filter; it passes its first value through unchanged.
    package init(minCutoff: Double = 1, beta: Double = 0, derivativeCutoff: Double = 1) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }

    /// Whether the filter has seen a value since it was created or reset.
    package var hasValue: Bool { started }

    /// Forgets the past: the next value passes through unchanged.
    package mutating func reset() {
        started = false
        previousDerivative = 0
    }

    /// Filters `value`, taken `interval` seconds after the previous one. A non-finite value resets
    /// the filter and is returned as is; an interval that is not a positive finite number leaves
    /// the filter unchanged and returns the previous output.
    package mutating func filter(_ value: Double, interval: Double, speedScale: Double = 1) -> Double {
        guard value.isFinite else { reset(); return value }
        guard started else {
            started = true
            previousValue = value
            previousDerivative = 0
            return value
        }
        guard interval.isFinite, interval > 0 else { return previousValue }
        let derivative = (value - previousValue) / interval
        let smoothedDerivative = Self.lowPass(derivative, previous: previousDerivative,
                                              alpha: Self.alpha(cutoff: derivativeCutoff, interval: interval))
        let scale = speedScale.isFinite && speedScale > 0 ? speedScale : 1
        let cutoff = minCutoff + beta * abs(smoothedDerivative) / scale
        let result = Self.lowPass(value, previous: previousValue, alpha: Self.alpha(cutoff: cutoff, interval: interval))
        previousValue = result
        previousDerivative = smoothedDerivative.isFinite ? smoothedDerivative : 0
        return result
    }

    /// Smoothing factor of a first-order low-pass filter at `cutoff` Hz sampled every `interval` s.
    static func alpha(cutoff: Double, interval: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / interval)
    }

    private static func lowPass(_ value: Double, previous: Double, alpha: Double) -> Double {
        alpha * value + (1 - alpha) * previous
    }
}
