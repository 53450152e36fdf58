import FaceCore
import Foundation

/// The scores of one evaluation, as named metrics (the names `--json`, the manifest thresholds
/// and the table use).
public struct EvaluationResult: Sendable, Equatable {
    /// The IoU threshold used.
    public var iouThreshold: Double
    /// Frames the truth lists.
    public var frames: Int
    /// Truth faces.
    public var truthFaces: Int
    /// Predicted faces (with or without track ID).
    public var predictedFaces: Int
    /// Predicted faces without a track ID (detections only; not hypotheses for tracking metrics).
    public var untrackedPredictions: Int
    /// Detection scores.
    public var detection: DetectionMetrics
    /// Tracking scores.
    public var tracking: TrackingMetrics
    /// Anonymisation: how much of the truth faces the predicted rows' masks hide, and what else they hide.
    public var masks: MaskCoverage

    /// Creates a result.
    public init(iouThreshold: Double, frames: Int, truthFaces: Int, predictedFaces: Int, untrackedPredictions: Int,
                detection: DetectionMetrics, tracking: TrackingMetrics, masks: MaskCoverage = MaskCoverage()) {
        self.iouThreshold = iouThreshold
        self.frames = frames
        self.truthFaces = truthFaces
        self.predictedFaces = predictedFaces
        self.untrackedPredictions = untrackedPredictions
        self.detection = detection
        self.tracking = tracking
        self.masks = masks
    }

    /// Every metric in report order; nil where undefined (such as recall without truth faces).
    public var metrics: [(name: String, value: Double?)] {
        let d = detection, t = tracking
        return [
            ("frames", Double(frames)), ("truth_faces", Double(truthFaces)), ("predicted_faces", Double(predictedFaces)),
            ("true_positives", Double(d.truePositives)), ("false_positives", Double(d.falsePositives)),
            ("misses", Double(d.misses)), ("precision", d.precision), ("recall", d.recall), ("f1", d.f1),
            ("mean_iou", d.meanIoU), ("average_precision", d.averagePrecision), ("eye_error", d.eyeError),
            ("eye_pairs", Double(d.eyePairs)),
            ("mota", t.mota), ("motp", t.motp), ("idf1", t.idf1), ("idp", t.idPrecision), ("idr", t.idRecall),
            ("id_switches", Double(t.idSwitches)), ("fragmentations", Double(t.fragmentations)),
            ("mostly_tracked", Double(t.mostlyTracked)), ("partially_tracked", Double(t.partiallyTracked)),
            ("mostly_lost", Double(t.mostlyLost)), ("truth_tracks", Double(t.truthTracks)),
            ("predicted_tracks", Double(t.predictedTracks)), ("untracked_predictions", Double(untrackedPredictions)),
            ("mask_coverage", masks.coverage), ("covered_faces", Double(masks.coveredFaces)),
            ("exposed_faces", Double(masks.truthFaces - masks.coveredFaces)), ("exposing_frames", Double(masks.exposingFrames)),
            ("false_mask_share", masks.falseMaskShare),
        ]
    }

    /// Metrics where a larger value is better (a threshold is a minimum).
    public static let higherIsBetter: Set<String> = ["true_positives", "precision", "recall", "f1", "mean_iou",
                                                     "average_precision", "mota", "motp", "idf1", "idp", "idr", "mostly_tracked",
                                                     "mask_coverage", "covered_faces"]
    /// Metrics where a smaller value is better (a threshold is a maximum).
    public static let lowerIsBetter: Set<String> = ["false_positives", "misses", "eye_error", "id_switches", "fragmentations",
                                                    "mostly_lost", "predicted_tracks", "untracked_predictions",
                                                    "exposed_faces", "exposing_frames", "false_mask_share"]
    private static let counts: Set<String> = ["frames", "truth_faces", "predicted_faces", "true_positives", "false_positives",
                                              "misses", "eye_pairs", "id_switches", "fragmentations", "mostly_tracked",
                                              "partially_tracked", "mostly_lost", "truth_tracks", "predicted_tracks",
                                              "untracked_predictions", "covered_faces", "exposed_faces", "exposing_frames"]

    /// The value of a metric; nil when it is undefined or unknown.
    public func value(of metric: String) -> Double? {
        metrics.first { $0.name == metric }?.value ?? nil
    }

    /// A metric as text: whole numbers for counts, 4 decimals otherwise, "n/a" when undefined.
    public static func format(_ name: String, _ value: Double?) -> String {
        guard let value else { return "n/a" }
        return counts.contains(name) ? String(Int(value)) : String(format: "%.4f", value)
    }

    /// A readable two-column table.
    public func table() -> String {
        var lines = [String(format: "iou_threshold          %.2f", iouThreshold)]
        for (name, value) in metrics {
            lines.append(name.padding(toLength: 23, withPad: " ", startingAt: 0) + Self.format(name, value))
        }
        return lines.joined(separator: "\n")
    }

    /// A JSON object with every metric (null where undefined), keys sorted; counts as whole
    /// numbers, the rest to 6 decimals.
    public func json() -> String {
        var fields = ["iou_threshold": JSONNumber(iouThreshold, decimals: 4)]
        for (name, value) in metrics {
            fields[name] = Self.counts.contains(name) ? value.map { .count(Int($0)) } ?? .null : JSONNumber(value, decimals: 6)
        }
        return (try? JSONOutput.string(fields, layout: .pretty)) ?? "{}"
    }
}
