/// One stretch of a video where a person appears.
public struct AppearanceRange: Sendable, Equatable {
    /// Presentation time of the first frame the person matched on, in seconds.
    public var start: Double
    /// End of the last such frame (its time plus its duration), in seconds.
    public var end: Double
    /// Frames the person matched on within the range.
    public var frames: Int
    /// The smallest distance seen in the range.
    public var bestDistance: Float

    /// Creates a range.
    public init(start: Double, end: Double, frames: Int, bestDistance: Float) {
        self.start = start
        self.end = end
        self.frames = frames
        self.bestDistance = bestDistance
    }
}

/// Collects the frames on which a person matched into time ranges, for `facetrack find`: frames
/// arrive in order; a gap of at most `maximumGap` seconds (a turned head, a missed detection)
/// does not split a range; ranges shorter than `minimumDuration` are dropped at the end.
package struct AppearanceRanges: Sendable {
    /// Longest gap, in seconds, bridged inside one range.
    package var maximumGap: Double
    /// Shortest range kept, in seconds.
    package var minimumDuration: Double
    private var closed: [AppearanceRange] = []
    private var open: AppearanceRange?

    /// An empty collector.
    package init(maximumGap: Double = 1, minimumDuration: Double = 0) {
        self.maximumGap = maximumGap
        self.minimumDuration = minimumDuration
    }

    /// The person matched (at `distance`) on the frame at `time` lasting `duration` seconds.
    package mutating func add(time: Double, duration: Double, distance: Float) {
        let end = time + max(0, duration)
        if var current = open, time - current.end <= maximumGap {
            current.end = max(current.end, end)
            current.frames += 1
            current.bestDistance = min(current.bestDistance, distance)
            open = current
            return
        }
        if let current = open { closed.append(current) }
        open = AppearanceRange(start: time, end: end, frames: 1, bestDistance: distance)
    }

    /// The ranges so far, the one still open included, without those shorter than `minimumDuration`.
    package var ranges: [AppearanceRange] {
        (closed + (open.map { [$0] } ?? [])).filter { $0.end - $0.start >= minimumDuration }
    }
}
