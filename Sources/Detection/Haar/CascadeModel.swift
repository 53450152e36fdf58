import Foundation

/// A boosted cascade read from OpenCV's current XML format (`opencv_storage/cascade`,
/// `stageType` BOOST, `featureType` HAAR or LBP): the stages, their weak trees and the features.
///
/// The values keep OpenCV's precision: thresholds and leaf values are read as doubles and stored
/// as floats, and each stage threshold is lowered by 1e-5 as OpenCV does, so that evaluation
/// rejects and accepts exactly the same windows.
package struct CascadeModel: Sendable {
    /// The kind of feature the weak classifiers test.
    package enum FeatureType: String, Sendable {
        /// Haar-like rectangle features, normalised by the window's standard deviation.
        case haar = "HAAR"
        /// Multi-block local binary patterns (256 categories).
        case lbp = "LBP"
    }

    /// One weighted rectangle of a Haar feature (window coordinates).
    package struct WeightedRect: Sendable, Equatable {
        /// Left edge (for a tilted rectangle: the top corner).
        package var x: Int
        /// Top edge.
        package var y: Int
        /// Width (for a tilted rectangle: the extent along the down-right diagonal).
        package var width: Int
        /// Height (for a tilted rectangle: the extent along the down-left diagonal).
        package var height: Int
        /// The weight of the rectangle's pixel sum.
        package var weight: Float
    }

    /// A Haar feature: two or three weighted rectangles, upright or turned 45 degrees.
    package struct HaarFeature: Sendable, Equatable {
        /// The rectangles (two or three).
        package var rects: [WeightedRect]
        /// True for a feature on the 45-degree (tilted) integral image.
        package var tilted: Bool
    }

    /// An LBP feature: the top-left 3x3 grid cell; the grid is 3 cells of `width` x `height`.
    package struct LBPFeature: Sendable, Equatable {
        /// Left edge of the grid.
        package var x: Int
        /// Top edge of the grid.
        package var y: Int
        /// Width of one cell.
        package var width: Int
        /// Height of one cell.
        package var height: Int
    }

    /// One stage: a sum of weak trees compared with a threshold.
    package struct Stage: Sendable {
        /// The stage threshold (already lowered by OpenCV's 1e-5).
        package var threshold: Float
        /// Index of the stage's first tree in `trees`.
        package var firstTree: Int
        /// Number of trees.
        package var treeCount: Int
    }

    /// One weak tree: its nodes and leaves in the flat arrays.
    package struct Tree: Sendable {
        /// Index of the first node in `nodes`.
        package var firstNode: Int
        /// Number of nodeValues nodes (1 for a stump).
        package var nodeCount: Int
        /// Index of the first leaf in `leaves` (there are `nodeCount + 1`).
        package var firstLeaf: Int
    }

    /// One nodeValues node: a feature test. A child index above 0 is a node of the same tree,
    /// 0 or below is the leaf `-index`.
    package struct Node: Sendable {
        /// Child when the test is true (value below threshold, or category in the subset).
        package var left: Int32
        /// Child otherwise.
        package var right: Int32
        /// The feature tested.
        package var feature: Int32
        /// The threshold for ordered (Haar) features; 0 for categorical (LBP) ones.
        package var threshold: Float
    }

    /// The file it was read from.
    package let path: String
    /// Haar or LBP.
    package let featureType: FeatureType
    /// Detection window width in pixels at scale 1.
    package let windowWidth: Int
    /// Detection window height in pixels at scale 1.
    package let windowHeight: Int
    /// The stages in order.
    package let stages: [Stage]
    /// All weak trees, stage after stage.
    package let trees: [Tree]
    /// All nodeValues nodes.
    package let nodes: [Node]
    /// All leaf values.
    package let leaves: [Float]
    /// For LBP: 8 words (256 bits) per node, the categories that go left.
    package let subsets: [Int32]
    /// Words per node in `subsets` (0 for Haar).
    package let subsetSize: Int
    /// The largest tree, in nodeValues nodes (1 means every tree is a stump).
    package let maxNodesPerTree: Int
    /// Haar features (empty for LBP).
    package let haarFeatures: [HaarFeature]
    /// LBP features (empty for Haar).
    package let lbpFeatures: [LBPFeature]

    /// True when some Haar feature uses the tilted integral image.
    package var hasTiltedFeatures: Bool { haarFeatures.contains { $0.tilted } }

    /// Reads a cascade file. Throws `CascadeError` (one line naming the file) when the file is
    /// missing, not XML, another kind of XML, an old-format cascade, or inconsistent.
    package init(contentsOf path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw CascadeError.missingFile(path: path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CascadeError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        try self.init(xml: data, path: path)
    }

    /// Reads a cascade from XML bytes; `path` names it in errors.
    package init(xml data: Data, path: String) throws {
        let root = try CascadeXMLReader.parse(data, path: path)
        guard root.name == "opencv_storage" else {
            throw CascadeError.notACascade(path: path, reason: "root element is <\(root.name)>, not <opencv_storage>")
        }
        guard let top = root.children.first else {
            throw CascadeError.notACascade(path: path, reason: "<opencv_storage> is empty")
        }
        if top.attributes["type_id"] == "opencv-haar-classifier" || top.child("size") != nil
            || (top.child("stageType") == nil && top.child("stages")?.children.first?.child("trees") != nil) {
            throw CascadeError.oldFormat(path: path)
        }
        guard let stageType = top.child("stageType")?.trimmedText else {
            throw CascadeError.notACascade(path: path, reason: "<\(top.name)> has no <stageType>")
        }
        guard stageType == "BOOST" else {
            throw CascadeError.unsupported(path: path, reason: "stageType \(stageType) (only BOOST)")
        }
        let featureName = top.child("featureType")?.trimmedText ?? ""
        guard let featureType = FeatureType(rawValue: featureName) else {
            throw CascadeError.unsupported(path: path, reason: "featureType '\(featureName)' (only HAAR and LBP)")
        }
        let reader = CascadeValueReader(path: path)
        let width = try reader.int(top.child("width"), "width")
        let height = try reader.int(top.child("height"), "height")
        guard width > 2, height > 2, width <= 4096, height <= 4096 else {
            throw CascadeError.invalid(path: path, reason: "window size \(width)x\(height)")
        }
        let categories = try reader.int(top.child("featureParams")?.child("maxCatCount"), "featureParams/maxCatCount")
        guard (featureType == .haar && categories == 0) || (featureType == .lbp && categories == 256) else {
            throw CascadeError.invalid(path: path, reason: "maxCatCount \(categories) for \(featureType.rawValue)")
        }
        let subsetSize = (categories + 31) / 32
        let nodeStep = 3 + (categories > 0 ? subsetSize : 1)

        // Features first, so node feature indices can be checked.
        guard let featureList = top.child("features"), !featureList.children.isEmpty else {
            throw CascadeError.notACascade(path: path, reason: "no <features>")
        }
        var haar: [HaarFeature] = []
        var lbp: [LBPFeature] = []
        for (index, item) in featureList.children.enumerated() {
            if featureType == .haar {
                haar.append(try reader.haarFeature(item, index: index, width: width, height: height))
            } else {
                lbp.append(try reader.lbpFeature(item, index: index, width: width, height: height))
            }
        }
        let featureCount = featureList.children.count

        guard let stageList = top.child("stages"), !stageList.children.isEmpty else {
            throw CascadeError.notACascade(path: path, reason: "no <stages>")
        }
        var stages: [Stage] = [], trees: [Tree] = [], nodes: [Node] = []
        var leaves: [Float] = [], subsets: [Int32] = []
        var maxNodes = 0
        for (stageIndex, stageElement) in stageList.children.enumerated() {
            let threshold = Float(try reader.double(stageElement.child("stageThreshold"), "stage \(stageIndex) stageThreshold"))
            guard let weakList = stageElement.child("weakClassifiers"), !weakList.children.isEmpty else {
                throw CascadeError.invalid(path: path, reason: "stage \(stageIndex) has no weakClassifiers")
            }
            stages.append(Stage(threshold: threshold - 1e-5, firstTree: trees.count, treeCount: weakList.children.count))
            for weak in weakList.children {
                let nodeValues = try reader.numbers(weak.child("internalNodes"), "stage \(stageIndex) internalNodes")
                let leafValues = try reader.numbers(weak.child("leafValues"), "stage \(stageIndex) leafValues")
                guard !nodeValues.isEmpty, nodeValues.count % nodeStep == 0, leafValues.count == nodeValues.count / nodeStep + 1 else {
                    throw CascadeError.invalid(path: path, reason: "stage \(stageIndex): \(nodeValues.count) nodeValues node values "
                        + "and \(leafValues.count) leaves do not form a tree")
                }
                let nodeCount = nodeValues.count / nodeStep
                trees.append(Tree(firstNode: nodes.count, nodeCount: nodeCount, firstLeaf: leaves.count))
                maxNodes = max(maxNodes, nodeCount)
                for n in 0..<nodeCount {
                    let base = n * nodeStep
                    let left = nodeValues[base], right = nodeValues[base + 1], feature = nodeValues[base + 2]
                    // Children point forward (so every walk ends at a leaf) and stay inside the tree.
                    for child in [left, right] where (child > 0 && child <= Double(n)) || child > Double(nodeCount - 1)
                        || child < -Double(nodeCount) || child != child.rounded() {
                        throw CascadeError.invalid(path: path, reason: "stage \(stageIndex): child index \(child) of node \(n) "
                            + "does not point forward inside its tree")
                    }
                    guard feature >= 0, feature < Double(featureCount), feature == feature.rounded() else {
                        throw CascadeError.invalid(path: path, reason: "stage \(stageIndex): feature index \(feature) outside 0..<\(featureCount)")
                    }
                    var node = Node(left: Int32(left), right: Int32(right), feature: Int32(feature), threshold: 0)
                    if categories > 0 {
                        for word in 0..<subsetSize {
                            let value = nodeValues[base + 3 + word]
                            guard value >= Double(Int32.min), value <= Double(Int32.max) else {
                                throw CascadeError.invalid(path: path, reason: "stage \(stageIndex): subset word \(value)")
                            }
                            subsets.append(Int32(value))
                        }
                    } else {
                        node.threshold = Float(nodeValues[base + 3])
                    }
                    nodes.append(node)
                }
                leaves.append(contentsOf: leafValues.map { Float($0) })
            }
        }
        self.path = path
        self.featureType = featureType
        self.windowWidth = width
        self.windowHeight = height
        self.stages = stages
        self.trees = trees
        self.nodes = nodes
        self.leaves = leaves
        self.subsets = subsets
        self.subsetSize = categories > 0 ? subsetSize : 0
        self.maxNodesPerTree = maxNodes
        self.haarFeatures = haar
        self.lbpFeatures = lbp
    }
}

/// Reads typed values out of cascade XML elements, with errors naming the file and the field.
private struct CascadeValueReader {
    let path: String

    func numbers(_ element: CascadeXMLElement?, _ field: String) throws -> [Double] {
        guard let element else { throw CascadeError.invalid(path: path, reason: "missing \(field)") }
        var values: [Double] = []
        for token in element.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            guard let value = Double(token), value.isFinite else {
                throw CascadeError.invalid(path: path, reason: "\(field) holds '\(token)', not a number")
            }
            values.append(value)
        }
        return values
    }

    func double(_ element: CascadeXMLElement?, _ field: String) throws -> Double {
        let values = try numbers(element, field)
        guard values.count == 1 else { throw CascadeError.invalid(path: path, reason: "\(field) should be one number") }
        return values[0]
    }

    func int(_ element: CascadeXMLElement?, _ field: String) throws -> Int {
        let value = try double(element, field)
        guard value == value.rounded(), abs(value) < 1e9 else {
            throw CascadeError.invalid(path: path, reason: "\(field) \(value) is not an integer")
        }
        return Int(value)
    }

    func haarFeature(_ item: CascadeXMLElement, index: Int, width: Int, height: Int) throws -> CascadeModel.HaarFeature {
        guard let rectList = item.child("rects"), (2...3).contains(rectList.children.count) else {
            throw CascadeError.invalid(path: path, reason: "Haar feature \(index) needs 2 or 3 <rects>")
        }
        let tilted = try item.child("tilted").map { try int($0, "feature \(index) tilted") != 0 } ?? false
        var rects: [CascadeModel.WeightedRect] = []
        for element in rectList.children {
            let v = try numbers(element, "feature \(index) rect")
            guard v.count == 5, v[0..<4].allSatisfy({ $0 == $0.rounded() && abs($0) < 1e6 }) else {
                throw CascadeError.invalid(path: path, reason: "Haar feature \(index) rect should be 'x y w h weight'")
            }
            let r = CascadeModel.WeightedRect(x: Int(v[0]), y: Int(v[1]), width: Int(v[2]), height: Int(v[3]), weight: Float(v[4]))
            let inside = tilted
                ? r.x - r.height >= 0 && r.x + r.width <= width && r.y >= 0 && r.y + r.width + r.height <= height
                : r.x >= 0 && r.y >= 0 && r.x + r.width <= width && r.y + r.height <= height
            guard r.width > 0, r.height > 0, inside else {
                throw CascadeError.invalid(path: path, reason: "Haar feature \(index) rect \(r.x) \(r.y) \(r.width) \(r.height) leaves the \(width)x\(height) window")
            }
            rects.append(r)
        }
        return CascadeModel.HaarFeature(rects: rects, tilted: tilted)
    }

    func lbpFeature(_ item: CascadeXMLElement, index: Int, width: Int, height: Int) throws -> CascadeModel.LBPFeature {
        let v = try numbers(item.child("rect"), "LBP feature \(index) rect")
        guard v.count == 4, v.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e6 }) else {
            throw CascadeError.invalid(path: path, reason: "LBP feature \(index) rect should be 'x y w h'")
        }
        let f = CascadeModel.LBPFeature(x: Int(v[0]), y: Int(v[1]), width: Int(v[2]), height: Int(v[3]))
        guard f.x >= 0, f.y >= 0, f.width > 0, f.height > 0, f.x + 3 * f.width <= width, f.y + 3 * f.height <= height else {
            throw CascadeError.invalid(path: path, reason: "LBP feature \(index) grid leaves the \(width)x\(height) window")
        }
        return f
    }
}
