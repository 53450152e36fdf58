/// Where one shot ends and the next begins, found on a small colour sample of each frame.
public enum ShotBoundary: Sendable, Equatable {
    /// A hard cut: this frame is the first of the new shot.
    case cut
    /// A fade or dip through black: this frame is the first to show the new shot again.
    case fade
    /// A dissolve: this frame is its middle, the first on which the new shot outweighs the old.
    case dissolve
}

/// Shot boundaries from a 32 x 18 colour sample of each frame, with a few frames of look-ahead.
///
/// Every pair of frames is compared by colour (a 16-bin brightness histogram and an 8 x 8 chroma
/// histogram) and by layout (the mean absolute difference of the sampled points over Y, U and V);
/// the distance is the sum, about 0.01 between two frames of a still talking head and 0.15 to 1.2
/// across a cut. Every threshold is relative to the clip's own recent change (the 75th percentile
/// of the last second since the previous boundary), so a cut between two people before the same
/// grey backdrop (0.17) stands out of a still shot while a handheld camera (0.1 to 0.2 per frame)
/// does not cut at every jolt.
/// - **Cut** at frame k: the step into k is at least `cutRatio` times the recent change (and at
///   least `cutFloor`), the step out of k is less than half of it (the new shot starts steady),
///   and k differs as much from the two frames before k - 1 and from the three after it: a camera
///   flash, a frame or two of white that returns to the picture before it, is not a cut.
/// - **Fade** through black: the first frame to show a picture after frames that are black
///   (mean brightness under 28 and no point over 44 on 0...255); a dark shot is not black.
/// - **Dissolve** with middle k: the frames `window` before and after k differ by `gradualRatio`
///   times what such a window spans in the shot before (and at least `cutFloor`), no single step
///   in between holds half of that, and frame k is a blend of the two ends (the residual of the
///   best mix is under `blendResidual` of their difference, at 25 to 75 % of the way): camera
///   motion also moves a picture far in a window, but its middle is no mix of its ends. A window
///   that holds a black frame is left to the fade rule.
///
/// Frames go in one at a time (`push`); each answer is for the frame `lookahead` frames earlier,
/// so that flashes can be told from cuts and a dissolve's middle found before it is passed on.
/// Measured on the identity corpus bench (docs/identity.md).
public struct ShotBoundaryDetector: Sendable {
    /// Side of the sample grid (columns x rows of area-averaged points, 3 bytes each: red, green, blue).
    public static let columns = 32, rows = 18
    /// Frames between the ends of a dissolve window and its middle (about a third of a second).
    public let window: Int
    /// Frames an answer comes after its frame was pushed.
    public var lookahead: Int { window + 2 }

    /// A cut's step over the recent change.
    public var cutRatio = 4.0
    /// Smallest distance of a cut, or of a dissolve's ends.
    public var cutFloor = 0.12
    /// A dissolve window's span over the recent spans of such windows.
    public var gradualRatio = 1.5
    /// Largest residual of a dissolve's middle as a mix of its ends, over their difference.
    public var blendResidual = 0.3

    private static let points = columns * rows
    private static let darkMean: Float = 28, darkPeak: Float = 44
    private static let historyFrames = 25
    private static let capacity = 128

    /// Per frame (ring, by frame number % capacity): the sample as Y, U, V floats, its histograms,
    /// the step from the frame before, the window span around it.
    private var samples: [[Float]]
    private var histograms: [[Float]]
    private var steps: [Double]
    private var spans: [Double]
    private var dark: [Bool]
    /// Frames pushed so far; frames decided so far.
    private var pushed = 0
    private var decided = 0
    /// The last boundary (frame), or far before the start.
    private var lastBoundary = -1_000_000
    private var darkSince: Int?

    /// A detector for video at `framesPerSecond` (the dissolve window is a third of a second, 4 to 15 frames).
    public init(framesPerSecond: Double = 25) {
        let fps = framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : 25
        window = min(15, max(4, Int((fps * 0.32).rounded())))
        samples = [[Float]](repeating: [], count: Self.capacity)
        histograms = [[Float]](repeating: [], count: Self.capacity)
        steps = [Double](repeating: 0, count: Self.capacity)
        spans = [Double](repeating: 0, count: Self.capacity)
        dark = [Bool](repeating: false, count: Self.capacity)
    }

    /// Takes the next frame's sample (`columns * rows` points of red, green, blue, row by row) and
    /// returns the verdict on frame `frame` (the one pushed `lookahead` frames earlier), if one is due.
    public mutating func push(_ rgb: [UInt8]) -> (frame: Int, boundary: ShotBoundary?)? {
        guard rgb.count == Self.points * 3 else { return nil }
        let frame = pushed
        store(rgb, as: frame)
        pushed += 1
        guard frame - decided >= lookahead else { return nil }
        return decideNext()
    }

    /// The verdicts on the frames still waiting for their look-ahead (at the end of the input).
    public mutating func finish() -> [(frame: Int, boundary: ShotBoundary?)] {
        var out: [(frame: Int, boundary: ShotBoundary?)] = []
        while decided < pushed { out.append(decideNext()) }
        return out
    }

    // MARK: - Samples and distances

    private mutating func store(_ rgb: [UInt8], as frame: Int) {
        var yuv = [Float](repeating: 0, count: Self.points * 3)
        var histogram = [Float](repeating: 0, count: 16 + 64)
        var sum: Float = 0, peak: Float = 0
        let share = 1 / Float(Self.points)
        for i in 0..<Self.points {
            let r = Float(rgb[3 * i]), g = Float(rgb[3 * i + 1]), b = Float(rgb[3 * i + 2])
            let y = 0.299 * r + 0.587 * g + 0.114 * b
            let u = (b - y) * 0.564 + 128, v = (r - y) * 0.713 + 128
            yuv[3 * i] = y
            yuv[3 * i + 1] = u
            yuv[3 * i + 2] = v
            // Soft bins (each value shared between the two nearest bins): a flat backdrop that
            // brightens through a dissolve moves the histogram gradually, not in one jump.
            let (y0, y1, wy) = Self.bins(y / 16 - 0.5, count: 16)
            histogram[y0] += share * (1 - wy)
            histogram[y1] += share * wy
            let (u0, u1, wu) = Self.bins((u - 96) / 8 - 0.5, count: 8), (v0, v1, wv) = Self.bins((v - 96) / 8 - 0.5, count: 8)
            histogram[16 + u0 * 8 + v0] += share * (1 - wu) * (1 - wv)
            histogram[16 + u1 * 8 + v0] += share * wu * (1 - wv)
            histogram[16 + u0 * 8 + v1] += share * (1 - wu) * wv
            histogram[16 + u1 * 8 + v1] += share * wu * wv
            sum += y
            peak = max(peak, y)
        }
        let slot = frame % Self.capacity
        samples[slot] = yuv
        histograms[slot] = histogram
        dark[slot] = sum * share < Self.darkMean && peak < Self.darkPeak
        steps[slot] = frame > 0 ? distance(frame - 1, frame) : 0
        // The window around frame - window now has both ends.
        let middle = frame - window
        if middle >= 0 { spans[middle % Self.capacity] = distance(max(0, middle - window), frame) }
    }

    /// The two bins around `position` (in bin units, centres at whole numbers) and the upper one's weight.
    private static func bins(_ position: Float, count: Int) -> (Int, Int, Float) {
        let clamped = min(Float(count - 1), max(0, position))
        let low = min(count - 2, Int(clamped))
        return (low, low + 1, clamped - Float(low))
    }

    /// Colour (half the L1 distance of the histograms, averaged over brightness and chroma) plus
    /// layout (mean absolute difference over Y, U and V, in 0...1 of the full range).
    private func distance(_ a: Int, _ b: Int) -> Double {
        let x = samples[a % Self.capacity], y = samples[b % Self.capacity]
        let hx = histograms[a % Self.capacity], hy = histograms[b % Self.capacity]
        var colour: Float = 0
        for i in hx.indices { colour += abs(hx[i] - hy[i]) }
        var layout: Float = 0
        for i in x.indices { layout += abs(x[i] - y[i]) }
        return Double(0.25 * colour + layout / Float(Self.points) / 255)
    }

    private func step(_ frame: Int) -> Double { steps[frame % Self.capacity] }
    private func span(_ frame: Int) -> Double { spans[frame % Self.capacity] }

    /// The 75th percentile of `values` (nil when there are fewer than `minimum`).
    private static func upperQuartile(_ values: [Double], minimum: Int) -> Double? {
        guard values.count >= max(1, minimum) else { return nil }
        let sorted = values.sorted()
        let position = 0.75 * Double(sorted.count - 1)
        let low = Int(position.rounded(.down)), high = min(sorted.count - 1, low + 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
    }

    // MARK: - Decisions

    private mutating func decideNext() -> (frame: Int, boundary: ShotBoundary?) {
        let k = decided
        decided += 1
        let boundary = decide(k)
        if boundary != nil { lastBoundary = k }
        return (k, boundary)
    }

    private mutating func decide(_ k: Int) -> ShotBoundary? {
        guard k > 0 else {
            if dark[0] { darkSince = 0 }
            return nil
        }
        let last = pushed - 1
        if dark[k % Self.capacity] {
            if darkSince == nil { darkSince = k }
            return nil
        }
        if let since = darkSince {
            darkSince = nil
            // Black from the very first frame is a start, not a transition.
            return since > 0 ? .fade : nil
        }
        // Recent change: the steps of the last second since the previous boundary.
        let first = max(1, k - Self.historyFrames, lastBoundary + 1)
        let calm = max(0.01, Self.upperQuartile((first..<k).map(step), minimum: 1) ?? 0.01)
        let jump = step(k)
        if jump >= max(cutFloor, cutRatio * calm), k < last, step(k + 1) < 0.5 * jump,
           (1...3).allSatisfy({ distance(k - 1, min(last, k + $0)) >= 0.6 * jump }),
           (2...3).allSatisfy({ distance(max(0, k - $0), k) >= 0.6 * jump }) {
            return .cut
        }
        return isDissolveMiddle(k, last: last) ? .dissolve : nil
    }

    private func isDissolveMiddle(_ k: Int, last: Int) -> Bool {
        let w = window
        guard k - w >= 1, k + w + 2 <= last, k - lastBoundary >= 2 * w else { return false }
        // What a window spanned in this shot before: windows wholly after the last boundary.
        let lowest = max(w, k - 2 * w - Self.historyFrames, lastBoundary + w + w / 2)
        guard let usual = Self.upperQuartile((lowest..<max(lowest, k - 2 * w)).map(span), minimum: 3) else { return false }
        let total = span(k)
        guard total >= max(cutFloor, gradualRatio * max(0.02, usual)) else { return false }
        let widest = ((k - 2)...(k + 2)).map(span).max() ?? total
        guard total >= 0.9 * widest else { return false }
        for j in (k - w + 1)...(k + w) where step(j) >= 0.5 * total { return false }
        // A fade to or from black is a mix with black: the fade rule marks it once, where the picture returns.
        for j in (k - w)...(k + w) where dark[j % Self.capacity] { return false }
        guard let (mix, residual) = blend(k), mix >= 0.25, mix <= 0.75, residual < blendResidual else { return false }
        // The middle: of the blends around k whose window spans as much, the one mixed nearest half way.
        for j in (k - 2)...(k + 2) where j != k && span(j) >= 0.9 * widest {
            if let (other, rest) = blend(j), rest < blendResidual, abs(other - 0.5) < abs(mix - 0.5) { return false }
        }
        return true
    }

    /// Frame k as a mix of the ends of its window: how far along (0 at the first, 1 at the last)
    /// and the residual over the ends' difference; nil when the ends are the same.
    private func blend(_ k: Int) -> (mix: Float, residual: Double)? {
        let p = samples[(k - window) % Self.capacity], q = samples[(k + window) % Self.capacity], m = samples[k % Self.capacity]
        var along: Float = 0, length: Float = 0
        for i in p.indices {
            let d = q[i] - p[i]
            along += (m[i] - p[i]) * d
            length += d * d
        }
        guard length > 0 else { return nil }
        let mix = along / length
        var residual: Float = 0
        for i in p.indices {
            let e = m[i] - p[i] - mix * (q[i] - p[i])
            residual += e * e
        }
        return (mix, Double((residual / length).squareRoot()))
    }
}
