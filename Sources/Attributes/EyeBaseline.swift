/// A track's typical open-eye openness, for judging one person's eye against itself in video: the
/// median of the last `capacity` measurements it was given. The stabilizer leaves out frames it
/// judged closed on the relative band, so blinks do not drag it down, and the median shrugs off the
/// odd wild reading (a turned head's hidden eye).
package struct EyeBaseline: Sendable, Equatable {
    /// How many recent open measurements the median runs over (about a second of video).
    package static let capacity = 31

    private var recent: [Double] = []
    private var next = 0

    /// An empty baseline.
    package init() {}

    /// How many open measurements it holds (at most `capacity`).
    package var count: Int { recent.count }

    /// The median of the held measurements (0 when empty).
    package var typical: Double {
        guard !recent.isEmpty else { return 0 }
        let sorted = recent.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Adds one measurement, unless `closed` (then it is left out).
    package mutating func update(_ openness: Double, closed: Bool) {
        guard openness.isFinite, !closed else { return }
        if recent.count < Self.capacity {
            recent.append(openness)
        } else {
            recent[next] = openness
            next = (next + 1) % Self.capacity
        }
    }
}
