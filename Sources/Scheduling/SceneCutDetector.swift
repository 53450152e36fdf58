/// A cheap shot-cut test on a small luma sample of each frame: a cut is a frame whose brightness
/// histogram and coarse layout both differ strongly from the previous frame's. Camera motion and
/// people moving change the layout but hardly the histogram; a cut changes both.
package struct SceneCutDetector: Sendable {
    /// Side of the sample grid (columns x rows of sampled points).
    package static let columns = 32, rows = 18
    private static let bins = 16

    /// Histogram distance (half the L1 distance of normalised histograms, 0 to 1) above which
    /// the histograms differ enough for a cut.
    package var histogramThreshold: Double
    /// Mean absolute difference of the sampled points (0 to 255) above which the layout changed.
    package var layoutThreshold: Double

    private var previous: [UInt8] = []
    private var previousHistogram = [Double](repeating: 0, count: bins)
    private var histogram = [Double](repeating: 0, count: bins)

    /// Creates a detector with thresholds measured on the reference clips (see docs/scheduling.md).
    package init(histogramThreshold: Double = 0.35, layoutThreshold: Double = 30) {
        self.histogramThreshold = histogramThreshold
        self.layoutThreshold = layoutThreshold
    }

    /// Takes the next frame's sample (`columns * rows` luma values, row by row) and tells whether
    /// it starts a new shot. The first frame is not a cut.
    ///
    /// Both measures leave out letterbox and pillarbox bars (rows and columns at the edges that are
    /// dark and unchanged in both frames): bars would otherwise dilute a cut below the thresholds.
    package mutating func isCut(sample: [UInt8]) -> Bool {
        defer { previous = sample }
        guard previous.count == sample.count, sample.count == Self.columns * Self.rows else { return false }
        let (rows, columns) = picture(sample)
        guard !rows.isEmpty, !columns.isEmpty else { return false }
        for i in histogram.indices { histogram[i] = 0; previousHistogram[i] = 0 }
        var layout = 0
        for row in rows {
            for i in (row * Self.columns + columns.lowerBound)..<(row * Self.columns + columns.upperBound) {
                layout += abs(Int(sample[i]) - Int(previous[i]))
                histogram[Int(sample[i]) * Self.bins / 256] += 1
                previousHistogram[Int(previous[i]) * Self.bins / 256] += 1
            }
        }
        let count = Double(rows.count * columns.count)
        var histogramDistance = 0.0
        for i in histogram.indices { histogramDistance += abs(histogram[i] - previousHistogram[i]) }
        histogramDistance /= 2 * count
        let layoutDistance = Double(layout) / count
        return histogramDistance > histogramThreshold && layoutDistance > layoutThreshold
    }

    /// The rows and columns inside the bars: whole rows at the top and bottom, then whole columns
    /// at the left and right, whose points are dark and did not change since the previous frame.
    private func picture(_ sample: [UInt8]) -> (rows: Range<Int>, columns: Range<Int>) {
        let width = Self.columns
        func isBar(_ i: Int) -> Bool { sample[i] <= Self.barLevel && abs(Int(sample[i]) - Int(previous[i])) <= Self.staticLevels }
        var top = 0, bottom = Self.rows
        while top < bottom, (0..<width).allSatisfy({ isBar(top * width + $0) }) { top += 1 }
        while bottom > top, (0..<width).allSatisfy({ isBar((bottom - 1) * width + $0) }) { bottom -= 1 }
        var left = 0, right = width
        while left < right, (top..<bottom).allSatisfy({ isBar($0 * width + left) }) { left += 1 }
        while right > left, (top..<bottom).allSatisfy({ isBar($0 * width + right - 1) }) { right -= 1 }
        return (top..<bottom, left..<right)
    }

    /// Darkest luma a bar may have (black bars come out of coders at 16 or a little above).
    private static let barLevel = 32
    /// Luma levels a bar point may move by and still count as unchanged (coding noise).
    private static let staticLevels = 2
}
