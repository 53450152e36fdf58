import FaceCore
import Tracking

/// Optimal one-to-one matching of truth and predicted boxes in one frame: the pairs with IoU at
/// or above the threshold that maximise the summed IoU (Hungarian method on 1 - IoU).
final class FrameMatcher {
    private let solver = HungarianSolver()
    private var costs: [Double] = []
    let threshold: Double

    init(threshold: Double) { self.threshold = threshold }

    /// (truth index, prediction index, IoU) for each matched pair.
    func match(_ truth: [Rect], _ predictions: [Rect]) -> [(truth: Int, prediction: Int, iou: Double)] {
        guard !truth.isEmpty, !predictions.isEmpty else { return [] }
        costs.removeAll(keepingCapacity: true)
        for t in truth {
            for p in predictions {
                let overlap = t.iou(p)
                costs.append(overlap >= threshold ? 1 - overlap : .infinity)
            }
        }
        let assignment = solver.solve(costs: costs, rows: truth.count, columns: predictions.count)
        var pairs: [(truth: Int, prediction: Int, iou: Double)] = []
        for (t, p) in assignment.enumerated() where p >= 0 {
            pairs.append((t, p, truth[t].iou(predictions[p])))
        }
        return pairs
    }
}
