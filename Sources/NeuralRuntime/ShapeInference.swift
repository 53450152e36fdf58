/// Output shapes of each operation kind, checked against its inputs.
enum ShapeInference {
    /// The output shape of `kind` for these input shapes (`nil` for an absent optional input).
    static func outputShape(_ kind: OperationKind, inputs: [[Int]?]) throws -> [Int] {
        func input(_ index: Int) throws -> [Int] {
            guard index < inputs.count, let shape = inputs[index] else { throw GraphIssue("missing input \(index)") }
            return shape
        }
        switch kind {
        case let .conv2D(parameters):
            let data = try rank4(try input(0)), filter = try rank4(try input(1))
            guard filter[3] == data[3] else {
                throw GraphIssue("filter \(filter) does not match \(data[3]) input channels")
            }
            try checkBias(inputs, count: filter[0])
            return [data[0], try spatial(data[1], filter[1], parameters.strideH, parameters.dilationH,
                                         parameters.padding.top + parameters.padding.bottom),
                    try spatial(data[2], filter[2], parameters.strideW, parameters.dilationW,
                                parameters.padding.left + parameters.padding.right), filter[0]]
        case let .depthwiseConv2D(parameters, multiplier):
            let data = try rank4(try input(0)), filter = try rank4(try input(1))
            guard multiplier >= 1, filter[0] == 1, filter[3] == data[3] * multiplier else {
                throw GraphIssue("depthwise filter \(filter) does not match \(data[3]) channels x \(multiplier)")
            }
            try checkBias(inputs, count: filter[3])
            return [data[0], try spatial(data[1], filter[1], parameters.strideH, parameters.dilationH,
                                         parameters.padding.top + parameters.padding.bottom),
                    try spatial(data[2], filter[2], parameters.strideW, parameters.dilationW,
                                parameters.padding.left + parameters.padding.right), filter[3]]
        case .add, .prelu:
            let a = try input(0), b = try input(1)
            guard ShapeArithmetic.elementCount(b) != nil else { throw GraphIssue("bad shape \(b)") }
            guard broadcastPeriod(of: b, over: a) != nil else {
                throw GraphIssue("shapes \(a) and \(b) cannot be combined element-wise")
            }
            return a
        case .activation, .sigmoid:
            return try input(0)
        case let .transposeConv2D(parameters):
            let data = try rank4(try input(0)), filter = try rank4(try input(1))
            guard filter[3] == data[3] else {
                throw GraphIssue("filter \(filter) does not match \(data[3]) input channels")
            }
            guard parameters.dilationH == 1, parameters.dilationW == 1, parameters.strideH >= 1,
                  parameters.strideW >= 1, parameters.strideH < 1 << 8, parameters.strideW < 1 << 8 else {
                throw GraphIssue("transposed convolution needs dilation 1 and a small stride")
            }
            try checkBias(inputs, count: filter[0])
            let padding = parameters.padding
            return [data[0], (data[1] - 1) * parameters.strideH + filter[1] - padding.top - padding.bottom,
                    (data[2] - 1) * parameters.strideW + filter[2] - padding.left - padding.right, filter[0]]
        case let .maxPool2D(parameters), let .averagePool2D(parameters):
            let data = try rank4(try input(0))
            return [data[0], try spatial(data[1], parameters.filterH, parameters.strideH, 1,
                                         parameters.padding.top + parameters.padding.bottom),
                    try spatial(data[2], parameters.filterW, parameters.strideW, 1,
                                parameters.padding.left + parameters.padding.right), data[3]]
        case let .pad(amounts):
            let data = try input(0)
            guard amounts.count == data.count, data.count <= 4,
                  amounts.allSatisfy({ $0.before >= 0 && $0.after >= 0 && $0.before < 1 << 20 && $0.after < 1 << 20 })
            else { throw GraphIssue("padding \(amounts.map { [$0.before, $0.after] }) does not fit shape \(data)") }
            return zip(data, amounts).map { $0 + $1.before + $1.after }
        case let .reshape(target):
            let data = try input(0)
            let count = data.reduce(1, *)
            let known = target.filter { $0 != -1 }
            guard target.filter({ $0 == -1 }).count <= 1, let product = ShapeArithmetic.elementCount(known) else {
                throw GraphIssue("bad reshape target \(target)")
            }
            if known.count == target.count {
                guard product == count else { throw GraphIssue("cannot reshape \(data) to \(target)") }
                return target
            }
            guard product > 0, count % product == 0 else { throw GraphIssue("cannot reshape \(data) to \(target)") }
            return target.map { $0 == -1 ? count / product : $0 }
        case let .concatenation(axis, _):
            let first = try input(0)
            let resolved = axis < 0 ? axis + first.count : axis
            guard resolved >= 0, resolved < first.count else { throw GraphIssue("bad concatenation axis \(axis)") }
            var result = first
            for index in 1..<max(1, inputs.count) {
                let shape = try input(index)
                guard shape.count == first.count,
                      shape.indices.allSatisfy({ $0 == resolved || shape[$0] == first[$0] }) else {
                    throw GraphIssue("cannot concatenate \(first) and \(shape) on axis \(axis)")
                }
                result[resolved] += shape[resolved]
            }
            return result
        case .fullyConnected:
            let data = try input(0), weights = try input(1)
            guard data.count >= 2, weights.count == 2, let count = ShapeArithmetic.elementCount(data),
                  count > 0, count / data[0] == weights[1] else {
                throw GraphIssue("weights \(weights) do not match input \(data)")
            }
            try checkBias(inputs, count: weights[0])
            return [data[0], weights[0]]
        case let .resizeBilinear(height, width, _, _):
            let data = try rank4(try input(0))
            guard height > 0, width > 0, height < 1 << 16, width < 1 << 16 else {
                throw GraphIssue("bad resize size \(height)x\(width)")
            }
            return [data[0], height, width, data[3]]
        }
    }

    /// The repeat period of `b` inside `a` when `b` equals `a` or a suffix of it (leading 1s of
    /// `b` ignored), e.g. [1,1,C] over [N,H,W,C] gives C; nil otherwise.
    static func broadcastPeriod(of b: [Int], over a: [Int]) -> Int? {
        var suffix = Array(b.drop(while: { $0 == 1 }))
        if suffix.isEmpty { suffix = [1] }
        guard suffix.count <= a.count else { return nil }
        if suffix == [1] { return 1 }
        guard Array(a.suffix(suffix.count)) == suffix else { return nil }
        return suffix.reduce(1, *)
    }

    private static func rank4(_ shape: [Int]) throws -> [Int] {
        guard shape.count == 4, shape.allSatisfy({ $0 > 0 }) else { throw GraphIssue("expected a 4-D shape, got \(shape)") }
        return shape
    }

    private static func checkBias(_ inputs: [[Int]?], count: Int) throws {
        guard inputs.count > 2, let bias = inputs[2] else { return }
        guard bias.reduce(1, *) == count else { throw GraphIssue("bias \(bias) does not match \(count) channels") }
    }

    private static func spatial(_ size: Int, _ kernel: Int, _ stride: Int, _ dilation: Int, _ padding: Int) throws
        -> Int {
        guard stride >= 1, dilation >= 1, kernel >= 1, padding >= 0, stride < 1 << 16, dilation < 1 << 16,
              kernel < 1 << 16, padding < 1 << 16 else {
            throw GraphIssue("bad window: kernel \(kernel), stride \(stride), dilation \(dilation)")
        }
        let effective = (kernel - 1) * dilation + 1
        guard size + padding >= effective else { throw GraphIssue("window \(effective) larger than input \(size)") }
        return (size + padding - effective) / stride + 1
    }
}
