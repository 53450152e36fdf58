import FaceCore

import Foundation

/// Turns BlazeFace's raw outputs into faces, as MediaPipe does: anchor decoding, clipped
/// sigmoid scores, weighted non-maximum suppression, then undoing the letterbox.
package struct BlazeFaceDecoder: Sendable {
    /// One decoded detection in normalised network-input coordinates.
    package struct Detection: Sendable, Equatable {
        /// Left edge.
        package var xMin: Double
        /// Top edge.
        package var yMin: Double
        /// Right edge.
        package var xMax: Double
        /// Bottom edge.
        package var yMax: Double
        /// The six keypoints (subject's right eye, left eye, nose, mouth, right ear, left ear).
        package var keypoints: [Point]
        /// Sigmoid score in [0, 1].
        package var score: Double

        /// Creates a detection.
        package init(xMin: Double, yMin: Double, xMax: Double, yMax: Double, keypoints: [Point], score: Double) {
            self.xMin = xMin
            self.yMin = yMin
            self.xMax = xMax
            self.yMax = yMax
            self.keypoints = keypoints
            self.score = score
        }

        /// Intersection over union with another detection.
        package func iou(_ other: Detection) -> Double {
            let width = min(xMax, other.xMax) - max(xMin, other.xMin)
            let height = min(yMax, other.yMax) - max(yMin, other.yMin)
            guard width > 0, height > 0 else { return 0 }
            let intersection = width * height
            let union = (xMax - xMin) * (yMax - yMin) + (other.xMax - other.xMin) * (other.yMax - other.yMin)
                - intersection
            return union > 0 ? intersection / union : 0
        }
    }

    /// Network input size in pixels (square unless given otherwise).
    package let inputWidth: Int
    package let inputHeight: Int
    /// Anchor centres, one per output row.
    package let anchors: [Point]
    /// Minimum score kept.
    package let threshold: Double
    /// Overlap above which detections are merged.
    package let suppressionIoU: Double

    /// Creates the decoder of `variant` run on a `inputWidth` x `inputHeight` input (its square
    /// input by default).
    package init(variant: BlazeFaceVariant, threshold: Double, suppressionIoU: Double = 0.3,
                 inputWidth: Int? = nil, inputHeight: Int? = nil) {
        self.inputWidth = inputWidth ?? variant.inputSize
        self.inputHeight = inputHeight ?? variant.inputSize
        anchors = variant.anchors(width: self.inputWidth, height: self.inputHeight)
        self.threshold = threshold
        self.suppressionIoU = suppressionIoU
    }

    /// The logistic function of a logit clipped to [-100, 100].
    package static func score(logit: Float) -> Double {
        let clipped = Double(min(max(logit, -100), 100))
        return 1 / (1 + exp(-clipped))
    }

    /// Detections above the threshold, before suppression. `regressors` holds 16 values per
    /// anchor, `scores` one logit per anchor.
    package func candidates(regressors: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>)
        -> [Detection] {
        let count = min(anchors.count, scores.count, regressors.count / 16)
        // Offsets and sizes are in input pixels.
        let scaleX = 1 / Double(inputWidth), scaleY = 1 / Double(inputHeight)
        var result: [Detection] = []
        for index in 0..<count {
            let score = Self.score(logit: scores[index])
            guard score >= threshold else { continue }
            let anchor = anchors[index]
            let row = index * 16
            let cx = Double(regressors[row]) * scaleX + anchor.x, cy = Double(regressors[row + 1]) * scaleY + anchor.y
            let w = Double(regressors[row + 2]) * scaleX, h = Double(regressors[row + 3]) * scaleY
            let keypoints = (0..<6).map { k in
                Point(x: Double(regressors[row + 4 + 2 * k]) * scaleX + anchor.x,
                       y: Double(regressors[row + 5 + 2 * k]) * scaleY + anchor.y)
            }
            let detection = Detection(xMin: cx - w / 2, yMin: cy - h / 2, xMax: cx + w / 2, yMax: cy + h / 2,
                                      keypoints: keypoints, score: score)
            guard detection.xMin.isFinite, detection.yMax.isFinite, w > 0, h > 0 else { continue }
            result.append(detection)
        }
        return result
    }

    /// Weighted non-maximum suppression: the best remaining detection absorbs every remaining
    /// one overlapping it by more than `suppressionIoU`, its box and keypoints becoming their
    /// score-weighted mean while it keeps its own score. Most confident first.
    package func weightedSuppression(_ detections: [Detection]) -> [Detection] {
        var remaining = detections.sorted { $0.score > $1.score }
        var result: [Detection] = []
        while let best = remaining.first {
            var merged = Detection(xMin: 0, yMin: 0, xMax: 0, yMax: 0,
                                   keypoints: Array(repeating: Point(x: 0, y: 0), count: best.keypoints.count),
                                   score: best.score)
            var total = 0.0
            var kept: [Detection] = []
            for other in remaining {
                guard best.iou(other) > suppressionIoU || other == best else {
                    kept.append(other)
                    continue
                }
                let weight = other.score
                total += weight
                merged.xMin += other.xMin * weight; merged.yMin += other.yMin * weight
                merged.xMax += other.xMax * weight; merged.yMax += other.yMax * weight
                for k in merged.keypoints.indices where k < other.keypoints.count {
                    merged.keypoints[k].x += other.keypoints[k].x * weight
                    merged.keypoints[k].y += other.keypoints[k].y * weight
                }
            }
            if kept.count + 1 == remaining.count {
                // Nothing overlapped: keep the detection exactly as decoded.
                result.append(best)
            } else if total > 0 {
                merged.xMin /= total; merged.yMin /= total; merged.xMax /= total; merged.yMax /= total
                for k in merged.keypoints.indices {
                    merged.keypoints[k].x /= total
                    merged.keypoints[k].y /= total
                }
                result.append(merged)
            } else {
                result.append(best)
            }
            remaining = kept
        }
        return result
    }

    /// Detections decoded and suppressed.
    package func decode(regressors: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>) -> [Detection] {
        weightedSuppression(candidates(regressors: regressors, scores: scores))
    }
}
