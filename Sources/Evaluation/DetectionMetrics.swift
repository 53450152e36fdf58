import FaceCore

/// Frame-by-frame detection scores: every predicted face counts, with or without a track ID.
public struct DetectionMetrics: Sendable, Equatable {
    /// Truth faces matched by a prediction (IoU at or above the threshold, optimal one-to-one per frame).
    public var truePositives = 0
    /// Predicted faces matching no truth face.
    public var falsePositives = 0
    /// Truth faces matching no prediction.
    public var misses = 0
    /// Summed IoU of the matched pairs.
    public var iouSum = 0.0
    /// Summed normalised eye error over `eyePairs`.
    public var eyeErrorSum = 0.0
    /// Matched pairs where truth and prediction both have both eyes.
    public var eyePairs = 0
    /// Average precision over confidence (all-point interpolation; greedy matching in confidence order).
    public var averagePrecision: Double?

    /// TP / (TP + FP); nil without predictions.
    public var precision: Double? { ratio(truePositives, truePositives + falsePositives) }
    /// TP / (TP + misses); nil without truth faces.
    public var recall: Double? { ratio(truePositives, truePositives + misses) }
    /// Harmonic mean of precision and recall; nil when either is.
    public var f1: Double? {
        guard let p = precision, let r = recall else { return nil }
        return p + r > 0 ? 2 * p * r / (p + r) : 0
    }
    /// Mean IoU of the matched pairs; nil without matches.
    public var meanIoU: Double? { truePositives > 0 ? iouSum / Double(truePositives) : nil }
    /// Mean eye-position error (per pair: the two eyes' mean distance over the true eye distance).
    public var eyeError: Double? { eyePairs > 0 ? eyeErrorSum / Double(eyePairs) : nil }

    /// Empty counts.
    public init() {}

    private func ratio(_ a: Int, _ b: Int) -> Double? { b > 0 ? Double(a) / Double(b) : nil }

    /// Adds the eye error of one matched pair when both have both eyes and the true eyes are apart.
    mutating func addEyes(truth: TrackRow, prediction: TrackRow) {
        guard let tl = truth.leftEye, let tr = truth.rightEye, let pl = prediction.leftEye, let pr = prediction.rightEye else { return }
        let distance = tl.distance(to: tr)
        guard distance > 0 else { return }
        eyeErrorSum += (pl.distance(to: tl) + pr.distance(to: tr)) / (2 * distance)
        eyePairs += 1
    }

    /// Average precision: predictions in falling confidence (file order among equals) each take the
    /// best still-unmatched truth face of their frame at IoU >= threshold; the area under the
    /// precision-recall curve with precision made monotone (PASCAL VOC 2010 and later).
    static func averagePrecision(truth: [Int: [TrackRow]], predictions: [TrackRow], threshold: Double) -> Double? {
        let total = truth.values.reduce(0) { $0 + $1.count }
        guard total > 0 else { return nil }
        let order = predictions.indices.sorted {
            predictions[$0].confidence != predictions[$1].confidence
                ? predictions[$0].confidence > predictions[$1].confidence : $0 < $1
        }
        var used: [Int: [Bool]] = [:]
        var hits = 0
        var precisions: [Double] = [], recalls: [Double] = []
        for (rank, i) in order.enumerated() {
            let p = predictions[i]
            let faces = truth[p.frame] ?? []
            var taken = used[p.frame] ?? Array(repeating: false, count: faces.count)
            var best = -1, bestIoU = threshold
            for (j, face) in faces.enumerated() where !taken[j] {
                let overlap = face.box.iou(p.box)
                if overlap >= bestIoU && (best < 0 || overlap > bestIoU) { best = j; bestIoU = overlap }
            }
            if best >= 0 { taken[best] = true; hits += 1; used[p.frame] = taken }
            precisions.append(Double(hits) / Double(rank + 1))
            recalls.append(Double(hits) / Double(total))
        }
        // Monotone precision from the right, then sum precision over each rise in recall.
        var area = 0.0, previousRecall = 0.0
        var envelope = precisions
        if envelope.count > 1 { for k in stride(from: envelope.count - 2, through: 0, by: -1) { envelope[k] = max(envelope[k], envelope[k + 1]) } }
        for k in envelope.indices where recalls[k] > previousRecall {
            area += (recalls[k] - previousRecall) * envelope[k]
            previousRecall = recalls[k]
        }
        return area
    }
}
