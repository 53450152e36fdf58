import FaceCore
/// A `CascadeModel` flattened into raw buffers for the scan loop: per stage the threshold and tree
/// count, per tree a stump (feature, threshold, two leaves) or the general nodes, and per Haar
/// feature its three rectangle weights. Immutable after creation, so workers share it.
final class CompiledCascade: @unchecked Sendable {
    struct Stump {
        var feature: Int32
        var threshold: Float
        var left: Float
        var right: Float
    }

    private let isHaar: Bool
    private let stumpsOnly: Bool
    private let stageCount: Int
    private let stageThresholds: UnsafeMutablePointer<Float>
    private let stageTrees: UnsafeMutablePointer<Int32>
    private let stumps: UnsafeMutablePointer<Stump>
    private let weights: UnsafeMutablePointer<Float>
    private let subsets: UnsafeMutablePointer<Int32>
    private let subsetSize: Int
    private let trees: UnsafeMutablePointer<CascadeModel.Tree>
    private let nodes: UnsafeMutablePointer<CascadeModel.Node>
    private let leaves: UnsafeMutablePointer<Float>
    private let normArea: Double
    private let windowWidth: Int
    private let windowHeight: Int

    init(model: CascadeModel) {
        isHaar = model.featureType == .haar
        stumpsOnly = model.maxNodesPerTree == 1
        stageCount = model.stages.count
        stageThresholds = .allocate(capacity: max(1, stageCount))
        stageTrees = .allocate(capacity: max(1, stageCount))
        for (i, stage) in model.stages.enumerated() {
            stageThresholds[i] = stage.threshold
            stageTrees[i] = Int32(stage.treeCount)
        }
        stumps = .allocate(capacity: max(1, model.trees.count))
        for (i, tree) in model.trees.enumerated() {
            let node = model.nodes[tree.firstNode]
            stumps[i] = Stump(feature: node.feature, threshold: node.threshold,
                              left: model.leaves[tree.firstLeaf], right: model.leaves[tree.firstLeaf + 1])
        }
        weights = .allocate(capacity: max(1, model.haarFeatures.count * 3))
        for (f, feature) in model.haarFeatures.enumerated() {
            for k in 0..<3 { weights[f * 3 + k] = k < feature.rects.count ? feature.rects[k].weight : 0 }
        }
        subsets = .allocate(capacity: max(1, model.subsets.count))
        for (i, word) in model.subsets.enumerated() { subsets[i] = word }
        subsetSize = model.subsetSize
        trees = .allocate(capacity: max(1, model.trees.count))
        for (i, tree) in model.trees.enumerated() { trees[i] = tree }
        nodes = .allocate(capacity: max(1, model.nodes.count))
        for (i, node) in model.nodes.enumerated() { nodes[i] = node }
        leaves = .allocate(capacity: max(1, model.leaves.count))
        for (i, leaf) in model.leaves.enumerated() { leaves[i] = leaf }
        normArea = Double((model.windowWidth - 2) * (model.windowHeight - 2))
        windowWidth = model.windowWidth
        windowHeight = model.windowHeight
    }

    deinit {
        stageThresholds.deallocate(); stageTrees.deallocate(); stumps.deallocate()
        weights.deallocate(); subsets.deallocate(); trees.deallocate(); nodes.deallocate(); leaves.deallocate()
    }

    /// Tries every window of row `y` on `level`, appending the windows that pass (in frame pixels).
    func scanRow(level: CascadeLevel, y: Int, into hits: inout [PixelRect]) {
        let step = level.step
        let rowStart = y * level.stride
        var x = 0
        while x < level.workWidth {
            let result: Int
            if isHaar {
                result = evaluateHaar(level: level, at: rowStart + x)
            } else {
                result = evaluateLBP(level: level, at: rowStart + x)
            }
            if result > 0 {
                let s = level.scale
                hits.append(PixelRect(x: Int((Float(x) * s).rounded(.toNearestOrEven)),
                                      y: Int((Float(y) * s).rounded(.toNearestOrEven)),
                                      width: level.windowWidth, height: level.windowHeight))
            }
            // A window rejected by the first stage lets the scan skip the next one (as OpenCV).
            if result == 0 { x += step }
            x += step
        }
    }

    /// 1 when the window passes every stage, `-stage` when the stage rejects it, -1 for a flat window.
    @inline(__always)
    private func evaluateHaar(level: CascadeLevel, at offset: Int) -> Int {
        let p = UnsafePointer(level.sums + offset)
        let q = UnsafePointer(level.squares + offset)
        let (n0, n1, n2, n3) = level.normOffsets
        let sum = p[Int(n0)] &- p[Int(n1)] &- p[Int(n2)] &+ p[Int(n3)]
        let squares = UInt32(bitPattern: q[Int(n0)] &- q[Int(n1)] &- q[Int(n2)] &+ q[Int(n3)])
        var nf = normArea * Double(squares) - Double(sum) * Double(sum)
        guard nf > 0 else { return -1 }
        nf = nf.squareRoot()
        let norm = Float(1 / nf)
        guard normArea * Double(norm) < 0.1 else { return -1 }
        let offsets = UnsafePointer(level.offsets)
        if !stumpsOnly { return evaluateHaarTrees(p: p, offsets: offsets, norm: norm) }
        var stump = UnsafePointer(stumps)
        for stage in 0..<stageCount {
            var total = 0.0
            for _ in 0..<Int(stageTrees[stage]) {
                let value = haarFeature(Int(stump.pointee.feature), p: p, offsets: offsets) * norm
                total += Double(value < stump.pointee.threshold ? stump.pointee.left : stump.pointee.right)
                stump += 1
            }
            if total < Double(stageThresholds[stage]) { return -stage }
        }
        return 1
    }

    /// The weighted rectangle sum of Haar feature `f` (before normalisation), in float like OpenCV.
    @inline(__always)
    private func haarFeature(_ f: Int, p: UnsafePointer<Int32>, offsets: UnsafePointer<Int32>) -> Float {
        let o = offsets + f * 12
        let w = weights + f * 3
        var value = w[0] * Float(p[Int(o[0])] &- p[Int(o[1])] &- p[Int(o[2])] &+ p[Int(o[3])])
            + w[1] * Float(p[Int(o[4])] &- p[Int(o[5])] &- p[Int(o[6])] &+ p[Int(o[7])])
        if w[2] != 0 { value += w[2] * Float(p[Int(o[8])] &- p[Int(o[9])] &- p[Int(o[10])] &+ p[Int(o[11])]) }
        return value
    }

    private func evaluateHaarTrees(p: UnsafePointer<Int32>, offsets: UnsafePointer<Int32>, norm: Float) -> Int {
        var treeIndex = 0
        for stage in 0..<stageCount {
            var total = 0.0
            for _ in 0..<Int(stageTrees[stage]) {
                let tree = trees[treeIndex]
                treeIndex += 1
                let first = nodes + tree.firstNode
                var index: Int32
                if tree.nodeCount == 2 {
                    // Two-node trees (the _alt cascades): evaluate both tests and pick the leaf with
                    // selects; a data-dependent branch here mispredicts half the time.
                    let root = first[0], second = first[1]
                    let v0 = haarFeature(Int(root.feature), p: p, offsets: offsets) * norm
                    let v1 = haarFeature(Int(second.feature), p: p, offsets: offsets) * norm
                    let afterRoot = v0 < root.threshold ? root.left : root.right
                    let afterSecond = v1 < second.threshold ? second.left : second.right
                    index = afterRoot == 1 ? afterSecond : afterRoot
                    if index > 0 { index = walk(first, from: index, p: p, offsets: offsets, norm: norm) }
                } else {
                    index = walk(first, from: 0, p: p, offsets: offsets, norm: norm)
                }
                total += Double(leaves[tree.firstLeaf &- Int(index)])
            }
            if total < Double(stageThresholds[stage]) { return -stage }
        }
        return 1
    }

    /// Follows a tree from node `index` to a leaf; returns the leaf as `-leaf` (0 or below).
    @inline(__always)
    private func walk(_ first: UnsafePointer<CascadeModel.Node>, from start: Int32, p: UnsafePointer<Int32>,
                      offsets: UnsafePointer<Int32>, norm: Float) -> Int32 {
        var index = start
        repeat {
            let node = first[Int(index)]
            let value = haarFeature(Int(node.feature), p: p, offsets: offsets) * norm
            index = value < node.threshold ? node.left : node.right
        } while index > 0
        return index
    }

    /// The 8-bit LBP code of feature `f`: each of the 8 outer cells of the 3x3 grid against the centre,
    /// clockwise from the top-left cell (bit 7) to the left cell (bit 0). The level stores per feature
    /// the grid's top-left offset, the cell width and the cell height times the stride, so the 16
    /// corners are read from four row pointers.
    @inline(__always)
    private func lbpCode(_ f: Int, p: UnsafePointer<Int32>, offsets: UnsafePointer<Int32>) -> Int {
        let o = offsets + f * 3
        let w = Int(o[1]), down = Int(o[2])
        let r0 = p + Int(o[0]), r1 = r0 + down, r2 = r1 + down, r3 = r2 + down
        let c0 = r0[0], c1 = r0[w], c2 = r0[2 * w], c3 = r0[3 * w]
        let c4 = r1[0], c5 = r1[w], c6 = r1[2 * w], c7 = r1[3 * w]
        let c8 = r2[0], c9 = r2[w], c10 = r2[2 * w], c11 = r2[3 * w]
        let c12 = r3[0], c13 = r3[w], c14 = r3[2 * w], c15 = r3[3 * w]
        let centre = c5 &- c6 &- c9 &+ c10
        var code = c0 &- c1 &- c4 &+ c5 >= centre ? 128 : 0
        code |= c1 &- c2 &- c5 &+ c6 >= centre ? 64 : 0
        code |= c2 &- c3 &- c6 &+ c7 >= centre ? 32 : 0
        code |= c6 &- c7 &- c10 &+ c11 >= centre ? 16 : 0
        code |= c10 &- c11 &- c14 &+ c15 >= centre ? 8 : 0
        code |= c9 &- c10 &- c13 &+ c14 >= centre ? 4 : 0
        code |= c8 &- c9 &- c12 &+ c13 >= centre ? 2 : 0
        code |= c4 &- c5 &- c8 &+ c9 >= centre ? 1 : 0
        return code
    }

    @inline(__always)
    private func inSubset(_ node: Int, code: Int) -> Bool {
        subsets[node * subsetSize + (code >> 5)] & (Int32(1) << Int32(code & 31)) != 0
    }

    private func evaluateLBP(level: CascadeLevel, at offset: Int) -> Int {
        let p = UnsafePointer(level.sums + offset)
        let offsets = UnsafePointer(level.offsets)
        if !stumpsOnly { return evaluateLBPTrees(p: p, offsets: offsets) }
        var stump = UnsafePointer(stumps)
        var subset = UnsafePointer(subsets)
        let words = subsetSize
        for stage in 0..<stageCount {
            var total = 0.0
            for _ in 0..<Int(stageTrees[stage]) {
                let code = lbpCode(Int(stump.pointee.feature), p: p, offsets: offsets)
                let hit = subset[code >> 5] & (Int32(1) << Int32(code & 31)) != 0
                total += Double(hit ? stump.pointee.left : stump.pointee.right)
                stump += 1
                subset += words
            }
            if total < Double(stageThresholds[stage]) { return -stage }
        }
        return 1
    }

    private func evaluateLBPTrees(p: UnsafePointer<Int32>, offsets: UnsafePointer<Int32>) -> Int {
        var treeIndex = 0
        for stage in 0..<stageCount {
            var total = 0.0
            for _ in 0..<Int(stageTrees[stage]) {
                let tree = trees[treeIndex]
                var index = 0
                repeat {
                    let nodeIndex = tree.firstNode + index
                    let code = lbpCode(Int(nodes[nodeIndex].feature), p: p, offsets: offsets)
                    index = Int(inSubset(nodeIndex, code: code) ? nodes[nodeIndex].left : nodes[nodeIndex].right)
                } while index > 0
                total += Double(leaves[tree.firstLeaf - index])
                treeIndex += 1
            }
            if total < Double(stageThresholds[stage]) { return -stage }
        }
        return 1
    }
}
