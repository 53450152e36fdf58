import FaceCore
import Tracking

/// Scores predicted face tracks against truth: detection (precision, recall, F1, mean IoU, AP, eye
/// error) and tracking (MOTA, MOTP, IDF1, ID switches, fragmentations, MT/PT/ML).
public struct Evaluator: Sendable {
    /// Minimum IoU for a predicted box to match a truth box (default 0.5).
    public var iouThreshold: Double
    /// The size of each predicted row's mask relative to its box, for anonymisation coverage
    /// (the renderer's `--mask-scale`, default 1.3).
    public var maskScale: Double
    /// The shape of each mask (the renderer's `--mask-shape`, default ellipse; an image mask
    /// counts as its box).
    public var maskShape: MaskShape

    /// How far (seconds) a prediction's frame time may be from the truth's (both are written with 6 decimals).
    public static let timeTolerance = 0.0005

    /// Creates an evaluator.
    public init(iouThreshold: Double = 0.5, maskScale: Double = 1.3, maskShape: MaskShape = .ellipse) {
        self.iouThreshold = iouThreshold
        self.maskScale = maskScale
        self.maskShape = maskShape
    }

    /// Evaluates `prediction` against `truth`. Throws when the prediction has a frame the truth
    /// does not list (a prediction for another clip, or a truth file cut short), or a frame whose
    /// time differs from the truth's by more than `timeTolerance`.
    public func evaluate(truth: TrackTable, prediction: TrackTable) throws -> EvaluationResult {
        let stray = prediction.frames.subtracting(truth.frames)
        if let first = stray.min(by: { prediction.firstLine[$0, default: 0] < prediction.firstLine[$1, default: 0] }) {
            throw EvaluationError.unknownFrame(prediction.path, line: prediction.firstLine[first, default: 0], frame: first,
                                               truthFrames: Self.describe(truth.frames))
        }
        // Both list times: a frame whose times disagree means frames were dropped, doubled or shifted.
        for frame in prediction.frames.sorted() {
            if let expected = truth.times[frame], let time = prediction.times[frame], abs(expected - time) > Self.timeTolerance {
                throw EvaluationError.badRow(prediction.path, line: prediction.firstLine[frame, default: 0],
                                             reason: "frame \(frame) is at \(time) s, the truth's frame \(frame) at \(expected) s")
            }
        }
        let matcher = FrameMatcher(threshold: iouThreshold)
        let (fullTruth, fullPrediction) = (truth, prediction)
        let (truth, prediction) = withoutIgnored(truth: truth, prediction: prediction, matcher: matcher)
        let truthByFrame = truth.rowsByFrame()
        let predictionByFrame = prediction.rowsByFrame()
        let frames = truth.frames.sorted()

        var detection = DetectionMetrics()
        for frame in frames {
            let t = truthByFrame[frame] ?? [], p = predictionByFrame[frame] ?? []
            let pairs = matcher.match(t.map(\.box), p.map(\.box))
            detection.truePositives += pairs.count
            detection.misses += t.count - pairs.count
            detection.falsePositives += p.count - pairs.count
            for pair in pairs {
                detection.iouSum += pair.iou
                detection.addEyes(truth: t[pair.truth], prediction: p[pair.prediction])
            }
        }
        detection.averagePrecision = DetectionMetrics.averagePrecision(truth: truthByFrame, predictions: prediction.rows, threshold: iouThreshold)

        let tracking = trackingMetrics(frames: frames, truth: truthByFrame, prediction: predictionByFrame, matcher: matcher)
        return EvaluationResult(iouThreshold: iouThreshold, frames: frames.count, truthFaces: truth.rows.count,
                                predictedFaces: prediction.rows.count,
                                untrackedPredictions: prediction.rows.filter { $0.trackID == nil }.count,
                                detection: detection, tracking: tracking,
                                masks: maskCoverage(truth: fullTruth, prediction: fullPrediction))
    }

    /// Anonymisation coverage: every predicted row is a mask (those on ignored faces too: they
    /// hide a face); ignored truth faces need no mask but are no false masking.
    private func maskCoverage(truth: TrackTable, prediction: TrackTable) -> MaskCoverage {
        let truthByFrame = truth.rowsByFrame(), predictionByFrame = prediction.rowsByFrame()
        var coverage = MaskCoverage()
        for frame in truth.frames.sorted() {
            let t = truthByFrame[frame] ?? []
            coverage.add(truth: t.filter { !$0.ignored }.map(\.box), ignored: t.filter(\.ignored).map(\.box),
                         predictions: (predictionByFrame[frame] ?? []).map(\.maskRegion), maskScale: maskScale, maskShape: maskShape)
        }
        return coverage
    }

    /// The truth without its ignored faces, and the prediction without the faces that match no
    /// counted truth face but lie on an ignored one (IoU 0.3, or 60% of the predicted box inside it).
    private func withoutIgnored(truth: TrackTable, prediction: TrackTable, matcher: FrameMatcher) -> (TrackTable, TrackTable) {
        guard truth.rows.contains(where: \.ignored) else { return (truth, prediction) }
        let counted = truth.rows.filter { !$0.ignored }
        let countedByFrame = Dictionary(grouping: counted, by: \.frame)
        let ignoredByFrame = Dictionary(grouping: truth.rows.filter(\.ignored), by: \.frame)
        var kept: [TrackRow] = []
        for (frame, rows) in prediction.rowsByFrame() {
            guard let ignored = ignoredByFrame[frame] else { kept += rows; continue }
            let matched = Set(matcher.match((countedByFrame[frame] ?? []).map(\.box), rows.map(\.box)).map(\.prediction))
            for (i, row) in rows.enumerated() {
                let onIgnored = ignored.contains { face in
                    row.box.iou(face.box) >= 0.3 || row.box.intersection(face.box).area >= 0.6 * row.box.area
                }
                if matched.contains(i) || !onIgnored { kept.append(row) }
            }
        }
        kept.sort { $0.line < $1.line }
        return (TrackTable(path: truth.path, rows: counted, frames: truth.frames, firstLine: truth.firstLine, times: truth.times),
                TrackTable(path: prediction.path, rows: kept, frames: prediction.frames, firstLine: prediction.firstLine,
                           times: prediction.times))
    }

    private func trackingMetrics(frames: [Int], truth: [Int: [TrackRow]], prediction: [Int: [TrackRow]],
                                 matcher: FrameMatcher) -> TrackingMetrics {
        var m = TrackingMetrics()
        var walk = ClearMOTWalk(matcher: matcher)
        var history: [Int: [Bool]] = [:]      // truth ID -> matched or not, for each frame it is present
        var pairFrames: [Pair: Int] = [:]     // (truth ID, hypothesis ID) -> frames at IoU >= threshold
        var truthCounts: [Int: Int] = [:], hypothesisCounts: [Int: Int] = [:]

        for frame in frames {
            let t = Self.identified(truth[frame]), h = Self.identified(prediction[frame])
            m.truthFaces += t.count
            m.hypotheses += h.count
            for row in t { truthCounts[row.id, default: 0] += 1 }
            for row in h { hypothesisCounts[row.id, default: 0] += 1 }

            // Identity overlaps, counted once per frame per pair of IDs.
            var seen = Set<Pair>()
            for a in t { for b in h where a.box.iou(b.box) >= iouThreshold {
                let pair = Pair(truth: a.id, hypothesis: b.id)
                if seen.insert(pair).inserted { pairFrames[pair, default: 0] += 1 }
            } }

            let step = walk.step(truth: t, hypotheses: h)
            for (i, row) in t.enumerated() {
                let j = step.truthMatch[i]
                history[row.id, default: []].append(j >= 0)
                guard j >= 0 else { m.misses += 1; continue }
                m.matches += 1
                m.iouSum += row.box.iou(h[j].box)
            }
            m.idSwitches += step.switchedFrom.count
            m.falsePositives += h.count - step.truthMatch.filter { $0 >= 0 }.count
        }

        for flags in history.values {
            let ratio = Double(flags.filter { $0 }.count) / Double(flags.count)
            if ratio >= 0.8 { m.mostlyTracked += 1 } else if ratio < 0.2 { m.mostlyLost += 1 } else { m.partiallyTracked += 1 }
            if let first = flags.firstIndex(of: true), let last = flags.lastIndex(of: true) {
                for k in first..<last where flags[k] && !flags[k + 1] { m.fragmentations += 1 }
            }
        }
        m.truthTracks = truthCounts.count
        m.predictedTracks = hypothesisCounts.count
        m.identityTruePositives = identityTruePositives(pairFrames, truthIDs: Array(truthCounts.keys), hypothesisIDs: Array(hypothesisCounts.keys))
        return m
    }

    /// What happened to each face of each truth frame, by the same matching the tracking metrics
    /// count (`facetrack render --truth` draws it): after the checks of `evaluate`, and with the
    /// predictions on ignored truth faces set apart.
    package func outcomes(truth: TrackTable, prediction: TrackTable) throws -> [Int: FrameOutcome] {
        _ = try evaluate(truth: truth, prediction: prediction)
        let matcher = FrameMatcher(threshold: iouThreshold)
        let (counted, kept) = withoutIgnored(truth: truth, prediction: prediction, matcher: matcher)
        let keptLines = Set(kept.rows.map(\.line))
        let truthByFrame = counted.rowsByFrame(), predictionByFrame = kept.rowsByFrame()
        let droppedByFrame = Dictionary(grouping: prediction.rows.filter { !keptLines.contains($0.line) }, by: \.frame)
        var walk = ClearMOTWalk(matcher: matcher)
        var outcomes: [Int: FrameOutcome] = [:]
        for frame in truth.frames.sorted() {
            let truthRows = (truthByFrame[frame] ?? []).filter { $0.trackID != nil }
            let all = predictionByFrame[frame] ?? []
            let identified = all.filter { $0.trackID != nil }
            let step = walk.step(truth: Self.identified(truthRows), hypotheses: Self.identified(identified))
            var outcome = FrameOutcome()
            var taken = Set<Int>()
            for (i, row) in truthRows.enumerated() {
                let j = step.truthMatch[i]
                guard j >= 0 else { outcome.missed.append(row); continue }
                taken.insert(j)
                outcome.matched.append(.init(truth: row, prediction: identified[j], switchedFrom: step.switchedFrom[i]))
            }
            outcome.falsePositives = identified.indices.filter { !taken.contains($0) }.map { identified[$0] }
            outcome.untracked = all.filter { $0.trackID == nil }
            outcome.ignored = droppedByFrame[frame] ?? []
            outcomes[frame] = outcome
        }
        return outcomes
    }

    /// The rows of a frame that have a track ID, with it.
    private static func identified(_ rows: [TrackRow]?) -> [IdentifiedRow] {
        (rows ?? []).compactMap { row in row.trackID.map { IdentifiedRow(id: $0, box: row.box) } }
    }

    /// The largest total overlap of a one-to-one pairing of truth and predicted tracks.
    private func identityTruePositives(_ pairFrames: [Pair: Int], truthIDs: [Int], hypothesisIDs: [Int]) -> Int {
        guard !truthIDs.isEmpty, !hypothesisIDs.isEmpty else { return 0 }
        var costs: [Double] = []
        costs.reserveCapacity(truthIDs.count * hypothesisIDs.count)
        for a in truthIDs { for b in hypothesisIDs { costs.append(-Double(pairFrames[Pair(truth: a, hypothesis: b)] ?? 0)) } }
        let assignment = HungarianSolver().solve(costs: costs, rows: truthIDs.count, columns: hypothesisIDs.count)
        var total = 0
        for (i, j) in assignment.enumerated() where j >= 0 {
            total += pairFrames[Pair(truth: truthIDs[i], hypothesis: hypothesisIDs[j])] ?? 0
        }
        return total
    }

    /// "0-99" style description of a frame set.
    static func describe(_ frames: Set<Int>) -> String {
        guard let low = frames.min(), let high = frames.max() else { return "none" }
        return frames.count == high - low + 1 ? "\(low)-\(high)" : "\(frames.count) frames from \(low) to \(high)"
    }
}

/// One frame of CLEAR MOT matching (Bernardin and Stiefelhagen 2008): each truth face keeps the
/// track it matched on the previous frame while their boxes still reach the threshold, the rest
/// are paired optimally; a pair whose track differs from the one the truth face last matched
/// (even across a gap) is an ID switch. The tracking metrics and the visual diff both walk the
/// frames with it, so they count the same thing.
private struct ClearMOTWalk {
    let matcher: FrameMatcher
    private var previous: [Int: Int] = [:]     // truth ID -> hypothesis ID matched in the previous frame
    private var lastMatched: [Int: Int] = [:]  // truth ID -> hypothesis ID of its latest match

    init(matcher: FrameMatcher) { self.matcher = matcher }

    /// The hypothesis each truth face matched (-1 for none) and, by truth index, the track a
    /// switching truth face matched before.
    mutating func step(truth t: [IdentifiedRow], hypotheses h: [IdentifiedRow]) -> (truthMatch: [Int], switchedFrom: [Int: Int]) {
        let threshold = matcher.threshold
        var truthMatch = Array(repeating: -1, count: t.count)
        var hypothesisTaken = Array(repeating: false, count: h.count)
        for (i, row) in t.enumerated() {
            guard let id = previous[row.id],
                  let j = h.indices.first(where: { !hypothesisTaken[$0] && h[$0].id == id }),
                  row.box.iou(h[j].box) >= threshold else { continue }
            truthMatch[i] = j
            hypothesisTaken[j] = true
        }
        let freeTruth = t.indices.filter { truthMatch[$0] < 0 }
        let freeHypotheses = h.indices.filter { !hypothesisTaken[$0] }
        for pair in matcher.match(freeTruth.map { t[$0].box }, freeHypotheses.map { h[$0].box }) {
            truthMatch[freeTruth[pair.truth]] = freeHypotheses[pair.prediction]
            hypothesisTaken[freeHypotheses[pair.prediction]] = true
        }
        previous.removeAll(keepingCapacity: true)
        var switchedFrom: [Int: Int] = [:]
        for (i, row) in t.enumerated() where truthMatch[i] >= 0 {
            let hypothesis = h[truthMatch[i]].id
            if let last = lastMatched[row.id], last != hypothesis { switchedFrom[i] = last }
            lastMatched[row.id] = hypothesis
            previous[row.id] = hypothesis
        }
        return (truthMatch, switchedFrom)
    }
}

/// What the matching made of one frame's faces.
package struct FrameOutcome: Sendable {
    /// A truth face and the prediction it matched; `switchedFrom` is the track the truth face
    /// matched before when this pair is an ID switch.
    package struct Match: Sendable {
        package var truth: TrackRow
        package var prediction: TrackRow
        package var switchedFrom: Int?
    }
    /// Truth faces with their predictions.
    package var matched: [Match] = []
    /// Truth faces no prediction matched.
    package var missed: [TrackRow] = []
    /// Predictions with a track ID that matched no truth face.
    package var falsePositives: [TrackRow] = []
    /// Predictions without a track ID (a tracker's unconfirmed faces): not scored.
    package var untracked: [TrackRow] = []
    /// Predictions lying on a truth face marked `ignore`: not scored.
    package var ignored: [TrackRow] = []
}

/// A face with its track ID.
private struct IdentifiedRow {
    let id: Int
    let box: Rect
}

/// A truth track ID and a predicted track ID.
private struct Pair: Hashable {
    let truth: Int
    let hypothesis: Int
}
