/// Running a convolutional graph at another input size than the file declares.
extension GraphDescription {
    /// The graph with its first input, NHWC [N,H,W,C], made `height` x `width`. Most operations
    /// follow on their own; the two that carry sizes are adapted: a bilinear resize to a whole
    /// multiple of its input's size keeps the multiple (an up-sampling step), and a reshape of
    /// [N,H,W,C] to [N, rows, K] (K dividing C: the spatial axes and anchors flattened) flattens
    /// the new ones. Declared shapes of computed tensors are dropped (the network infers them
    /// again). Throws `GraphIssue` where a size cannot follow (a resize to a fixed size, a reshape
    /// of another kind).
    /// `batch` images go through at once (a batch of the declared one-image graph: every
    /// operation's first axis becomes `batch`).
    func withInputSize(height: Int, width: Int, batch: Int = 1) throws -> GraphDescription {
        guard let input = inputs.first, tensors.indices.contains(input), tensors[input].shape.count == 4 else {
            throw GraphIssue("the first input is not a 4-D image")
        }
        guard batch >= 1, batch == 1 || tensors[input].shape[0] == 1 else {
            throw GraphIssue("a batch of \(batch) needs a graph declared for one image")
        }
        var result = self
        result.tensors[input].shape[0] = batch
        result.tensors[input].shape[1] = height
        result.tensors[input].shape[2] = width
        // Each tensor's shape in the graph as declared, and at the new size.
        var declared = [[Int]?](repeating: nil, count: tensors.count)
        var resized = declared
        for (index, tensor) in tensors.enumerated() where tensor.constant != nil || inputs.contains(index) {
            declared[index] = tensor.shape
            resized[index] = result.tensors[index].shape
        }
        func shapes(_ table: [[Int]?], _ operation: OperationDescription) -> [[Int]?] {
            operation.inputs.map { $0 >= 0 && $0 < table.count ? table[$0] : nil }
        }
        for (step, operation) in operations.enumerated() {
            let before = shapes(declared, operation), after = shapes(resized, operation)
            var kind = operation.kind
            if before.first != after.first, let old = before.first ?? nil, let new = after.first ?? nil {
                switch kind {
                case let .resizeBilinear(h, w, alignCorners, halfPixelCenters):
                    guard old.count == 4, old[1] > 0, old[2] > 0, h % old[1] == 0, w % old[2] == 0 else {
                        throw GraphIssue("a resize to the fixed size \(h)x\(w) cannot follow the input size")
                    }
                    kind = .resizeBilinear(height: new[1] * (h / old[1]), width: new[2] * (w / old[2]),
                                           alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
                case let .reshape(target):
                    guard old.count == 4, target.count == 3, target[0] == old[0], target[2] > 0, old[3] % target[2] == 0
                    else {
                        throw GraphIssue("a reshape to \(target) cannot follow the input size")
                    }
                    kind = .reshape([new[0], -1, target[2]])
                default:
                    break
                }
            }
            result.operations[step].kind = kind
            guard let output = operation.outputs.first else { continue }
            // A graph declared at a placeholder size may not infer there; nothing then needs adapting.
            declared[output] = try? ShapeInference.outputShape(operation.kind, inputs: before)
            resized[output] = try ShapeInference.outputShape(kind, inputs: after)
            result.tensors[output].shape = []
        }
        return result
    }
}
