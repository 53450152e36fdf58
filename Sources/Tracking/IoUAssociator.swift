import FaceCore

/// One track matched to one detection, by their indices in the arrays given to the associator.
struct Match: Equatable {
    /// Index into the track boxes.
    var track: Int
    /// Index into the detection boxes.
    var detection: Int
}

/// Matches predicted track boxes to detection boxes, maximising the summed IoU over pairs whose
/// IoU reaches a threshold (cost 1 - IoU, with a pair below the threshold costing as much as
/// leaving both unmatched). Pairs below the threshold never interact, so the problem splits into
/// connected components of the "IoU >= threshold" graph; each is solved on its own with the
/// Hungarian method, and the common one-track-one-detection component needs no solver at all.
/// Scratch memory is kept between calls.
final class IoUAssociator {
    private struct Edge {
        var track: Int32
        var detection: Int32
        var iou: Double
    }

    private let solver = HungarianSolver()
    private var edges: [Edge] = []
    private var parent: [Int32] = []
    private var component: [Int32] = []
    private var componentStart: [Int] = []
    private var componentFill: [Int] = []
    private var sortedEdges: [Edge] = []
    private var localIndex: [Int32] = []
    private var componentTracks: [Int] = []
    private var componentDetections: [Int] = []
    private var costs: [Double] = []
    private var assignment: [Int] = []

    /// Appends the matches between `tracks` and `detections` to `matches` (not cleared), in a
    /// deterministic order.
    func associate(tracks: [Rect], detections: [Rect], threshold: Double, into matches: inout [Match]) {
        let trackCount = tracks.count, detectionCount = detections.count
        guard trackCount > 0, detectionCount > 0 else { return }
        collectEdges(tracks: tracks, detections: detections, threshold: threshold)
        if edges.isEmpty { return }

        // Union-find over nodes: tracks are 0..<T, detections T..<T+D.
        let nodeCount = trackCount + detectionCount
        parent.removeAll(keepingCapacity: true)
        for i in 0..<nodeCount { parent.append(Int32(i)) }
        for edge in edges { union(Int(edge.track), trackCount + Int(edge.detection)) }

        // Number the components in order of their first edge and bucket the edges by component.
        component.removeAll(keepingCapacity: true)
        component.append(contentsOf: repeatElement(-1, count: nodeCount))
        componentStart.removeAll(keepingCapacity: true)
        var componentCount = 0
        for edge in edges {
            let root = find(Int(edge.track))
            if component[root] < 0 { component[root] = Int32(componentCount); componentCount += 1; componentStart.append(0) }
            componentStart[Int(component[root])] += 1
        }
        var running = 0
        for k in 0..<componentCount { let c = componentStart[k]; componentStart[k] = running; running += c }
        componentStart.append(running)
        sortedEdges.removeAll(keepingCapacity: true)
        sortedEdges.append(contentsOf: repeatElement(Edge(track: 0, detection: 0, iou: 0), count: edges.count))
        componentFill.removeAll(keepingCapacity: true)
        componentFill.append(contentsOf: componentStart[0..<componentCount])
        for edge in edges {
            let k = Int(component[find(Int(edge.track))])
            sortedEdges[componentFill[k]] = edge
            componentFill[k] += 1
        }

        localIndex.removeAll(keepingCapacity: true)
        localIndex.append(contentsOf: repeatElement(-1, count: nodeCount))
        for k in 0..<componentCount {
            let range = componentStart[k]..<componentStart[k + 1]
            if range.count == 1 {
                let edge = sortedEdges[range.lowerBound]
                matches.append(Match(track: Int(edge.track), detection: Int(edge.detection)))
                continue
            }
            solveComponent(range, trackCount: trackCount, into: &matches)
        }
    }

    /// Fills `edges` with every pair at or above the threshold.
    private func collectEdges(tracks: [Rect], detections: [Rect], threshold: Double) {
        edges.removeAll(keepingCapacity: true)
        for (t, a) in tracks.enumerated() {
            let aArea = a.area
            for (d, b) in detections.enumerated() {
                // Cheap rejection before the division: most pairs do not touch.
                let w = min(a.maxX, b.maxX) - max(a.x, b.x)
                if !(w > 0) { continue }
                let h = min(a.maxY, b.maxY) - max(a.y, b.y)
                if !(h > 0) { continue }
                let inter = w * h
                let iou = inter / (aArea + b.area - inter)
                if iou >= threshold, iou.isFinite { edges.append(Edge(track: Int32(t), detection: Int32(d), iou: iou)) }
            }
        }
    }

    /// Solves one component with the Hungarian method and appends its matches.
    private func solveComponent(_ range: Range<Int>, trackCount: Int, into matches: inout [Match]) {
        componentTracks.removeAll(keepingCapacity: true)
        componentDetections.removeAll(keepingCapacity: true)
        for e in range {
            let t = Int(sortedEdges[e].track), d = trackCount + Int(sortedEdges[e].detection)
            if localIndex[t] < 0 { localIndex[t] = Int32(componentTracks.count); componentTracks.append(t) }
            if localIndex[d] < 0 { localIndex[d] = Int32(componentDetections.count); componentDetections.append(d - trackCount) }
        }
        let rows = componentTracks.count, columns = componentDetections.count
        costs.removeAll(keepingCapacity: true)
        costs.append(contentsOf: repeatElement(1, count: rows * columns))
        for e in range {
            let edge = sortedEdges[e]
            let r = Int(localIndex[Int(edge.track)]), c = Int(localIndex[trackCount + Int(edge.detection)])
            costs[r * columns + c] = 1 - edge.iou
        }
        solver.solve(costs: costs, rows: rows, columns: columns, into: &assignment)
        for (r, c) in assignment.enumerated() where c >= 0 && costs[r * columns + c] < 1 {
            matches.append(Match(track: componentTracks[r], detection: componentDetections[c]))
        }
        for t in componentTracks { localIndex[t] = -1 }
        for d in componentDetections { localIndex[trackCount + d] = -1 }
    }

    private func find(_ node: Int) -> Int {
        var x = node
        while Int(parent[x]) != x {
            parent[x] = parent[Int(parent[x])]  // path halving
            x = Int(parent[x])
        }
        return x
    }

    private func union(_ a: Int, _ b: Int) {
        let ra = find(a), rb = find(b)
        if ra != rb { parent[max(ra, rb)] = Int32(min(ra, rb)) }
    }
}
