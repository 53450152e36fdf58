import FaceCore

/// A grouped detection: the averaged rectangle and how many raw windows it merges.
package struct CascadeDetection: Sendable, Equatable {
    /// The averaged box, clipped to the frame.
    package var rect: PixelRect
    /// The number of raw detections in the group (OpenCV's `numDetections`).
    package var neighbors: Int
}

/// Merges overlapping raw detections the way OpenCV's `groupRectangles` does.
///
/// Rectangles are similar when every edge differs by at most `eps * (min widths + min heights) / 2`;
/// groups are the connected components of that relation. Each group becomes the average of its
/// rectangles (float average, rounded half to even). Groups with `minNeighbors` or fewer members are
/// dropped, and so is a group lying inside another (grown by `eps` of its size) that has more than
/// `max(3, own count)` members, or any larger group when its own count is below 3.
package enum RectangleGrouping {
    /// Groups `rects`; with `minNeighbors <= 0` every rectangle is returned alone with count 1.
    package static func group(_ rects: [PixelRect], minNeighbors: Int, eps: Double = 0.2) -> [CascadeDetection] {
        guard minNeighbors > 0, !rects.isEmpty else {
            return rects.map { CascadeDetection(rect: $0, neighbors: 1) }
        }
        let labels = partition(rects, eps: eps)
        let classCount = (labels.max() ?? -1) + 1
        var sums = [(x: Int, y: Int, width: Int, height: Int)](repeating: (0, 0, 0, 0), count: classCount)
        var counts = [Int](repeating: 0, count: classCount)
        for (i, label) in labels.enumerated() {
            sums[label].x += rects[i].x
            sums[label].y += rects[i].y
            sums[label].width += rects[i].width
            sums[label].height += rects[i].height
            counts[label] += 1
        }
        var averages: [PixelRect] = []
        averages.reserveCapacity(classCount)
        for c in 0..<classCount {
            let s = 1 / Float(counts[c])
            func average(_ v: Int) -> Int { Int((Float(v) * s).rounded(.toNearestOrEven)) }
            averages.append(PixelRect(x: average(sums[c].x), y: average(sums[c].y),
                                      width: average(sums[c].width), height: average(sums[c].height)))
        }
        var result: [CascadeDetection] = []
        for i in 0..<classCount where counts[i] > minNeighbors {
            let r1 = averages[i], n1 = counts[i]
            var swallowed = false
            for j in 0..<classCount where j != i && counts[j] > minNeighbors {
                let r2 = averages[j], n2 = counts[j]
                let dx = Int((Double(r2.width) * eps).rounded(.toNearestOrEven))
                let dy = Int((Double(r2.height) * eps).rounded(.toNearestOrEven))
                if r1.x >= r2.x - dx, r1.y >= r2.y - dy, r1.x + r1.width <= r2.x + r2.width + dx,
                   r1.y + r1.height <= r2.y + r2.height + dy, n2 > max(3, n1) || n1 < 3 {
                    swallowed = true
                    break
                }
            }
            if !swallowed { result.append(CascadeDetection(rect: r1, neighbors: n1)) }
        }
        return result
    }

    /// Whether two rectangles belong to the same object (OpenCV's `SimilarRects`).
    static func similar(_ a: PixelRect, _ b: PixelRect, eps: Double) -> Bool {
        let delta = eps * Double(min(a.width, b.width) + min(a.height, b.height)) * 0.5
        return Double(abs(a.x - b.x)) <= delta && Double(abs(a.y - b.y)) <= delta
            && Double(abs(a.x + a.width - b.x - b.width)) <= delta
            && Double(abs(a.y + a.height - b.y - b.height)) <= delta
    }

    /// Connected components of the similarity relation (union-find); labels count from 0 in order
    /// of each component's first member.
    static func partition(_ rects: [PixelRect], eps: Double) -> [Int] {
        var parent = Array(0..<rects.count)
        func root(_ i: Int) -> Int {
            var r = i
            while parent[r] != r { r = parent[r] }
            var k = i
            while parent[k] != r { let next = parent[k]; parent[k] = r; k = next }
            return r
        }
        for i in 0..<rects.count {
            for j in (i + 1)..<max(i + 1, rects.count) where similar(rects[i], rects[j], eps: eps) {
                let a = root(i), b = root(j)
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var labelOfRoot = [Int](repeating: -1, count: rects.count)
        var labels = [Int](repeating: 0, count: rects.count)
        var next = 0
        for i in 0..<rects.count {
            let r = root(i)
            if labelOfRoot[r] < 0 { labelOfRoot[r] = next; next += 1 }
            labels[i] = labelOfRoot[r]
        }
        return labels
    }
}
