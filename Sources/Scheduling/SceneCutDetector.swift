/// A cheap shot-cut test on a small luma sample of each frame: a cut is a frame whose brightness
/// histogram and coarse layout both differ strongly from the previous frame's. Camera motion and
/// people moving change the layout but hardly the histogram; a cut changes both.
public struct SceneCutDetector: Sendable {
    /// Side of the sample grid (columns x rows of sampled points).
    public static let columns = 32, rows = 18
    private static let bins = 16

    /// Histogram distance (half the L1 distance of normalised histograms, 0 to 1) above which
    /// the histograms differ enough for a cut.
    public var histogramThreshold: Double
    /// Mean absolute difference of the sampled points (0 to 255) above which the layout changed.
    public var layoutThreshold: Double

    private var previous: [UInt8] = []
    private var previousHistogram = [Double](repeating: 0, count: bins)
    private var histogram = [Double](repeating: 0, count: bins)

    /// Creates a detector with thresholds measured on the reference clips (see docs/scheduling.md).
    public init(histogramThreshold: Double = 0.35, layoutThreshold: Double = 30) {
        self.histogramThreshold = histogramThreshold
        self.layoutThreshold = layoutThreshold
    }

    /// Takes the next frame's sample (`columns * rows` luma values, row by row) and tells whether
    /// it starts a new shot. The first frame is not a cut.
    public mutating func isCut(sample: [UInt8]) -> Bool {
        for i in histogram.indices { histogram[i] = 0 }
        for value in sample { histogram[Int(value) * Self.bins / 256] += 1 }
        let total = Double(max(1, sample.count))
        for i in histogram.indices { histogram[i] /= total }
        defer {
            previous = sample
            swap(&previousHistogram, &histogram)
        }
        guard previous.count == sample.count, !sample.isEmpty else { return false }
        var histogramDistance = 0.0
        for i in histogram.indices { histogramDistance += abs(histogram[i] - previousHistogram[i]) }
        histogramDistance /= 2
        var layout = 0
        for i in sample.indices { layout += abs(Int(sample[i]) - Int(previous[i])) }
        let layoutDistance = Double(layout) / total
        return histogramDistance > histogramThreshold && layoutDistance > layoutThreshold
    }
}
