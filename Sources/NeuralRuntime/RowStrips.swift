/// A mobile network's block (expansion, depthwise, projection) computed one output row of its
/// last step at a time, each step doing the rows the next one needs, instead of one whole tensor
/// after another. The expansion writes a tensor far larger than the cache (CenterFace's first:
/// 192 x 320 x 96 floats, 23.6 MB) that the depthwise convolution would then read back from
/// memory; in strips it reads rows still in the cache (CenterFace at 640 x 384: about 46 instead
/// of 51 ms). Each output value is computed by the same kernel code in the same order, so the
/// results are identical to running the steps one after another.
struct RowStripChain: Sendable, Equatable {
    /// Operations (steps) `first..<end` of the network.
    let steps: Range<Int>
    /// Per step of the run: how its output rows depend on its input rows.
    let rows: [RowDependency]
}

/// How a convolution's output rows read its input rows (a batch of one).
struct RowDependency: Sendable, Equatable {
    let inputRows: Int
    let outputRows: Int
    let stride: Int
    let padTop: Int
    /// Input rows a kernel spans below its first: (kernel height - 1) x dilation.
    let reach: Int

    /// How many input rows, from the top, output rows `0..<rows` read.
    func inputRowsRead(forOutputRows rows: Int) -> Int {
        guard rows > 0 else { return 0 }
        return min(inputRows, max(0, (rows - 1) * stride - padTop + reach + 1))
    }
}

extension RowDependency {
    /// The first input row output row `row` reads.
    func firstInputRow(forOutputRow row: Int) -> Int { max(0, row * stride - padTop) }
}

enum RowStripPlanner {
    /// Rows each step's output must keep when it lives in a ring of rows instead of a whole
    /// tensor (0 for the last step, whose output later operations read): the most rows between
    /// the first one the next step has still to read and the last one written, over the order in
    /// which `forEachStrip` computes them for each band of output rows. A ring this size is never
    /// overwritten before it is read.
    static func ringRows(_ rows: [RowDependency], bands: [Range<Int>]? = nil) -> [Int] {
        let count = rows.count
        guard count > 1, let last = rows.last, last.outputRows > 0 else { return [Int](repeating: 0, count: count) }
        var ring = [Int](repeating: 0, count: count)
        for band in bands ?? [0..<last.outputRows] {
            var done = [Int](repeating: 0, count: count)
            done.withUnsafeMutableBufferPointer { firstRows(rows, band: band, into: $0.baseAddress!) }
            forEachStrip(rows, band: band, completing: bands == nil) { k, strip in
                if k + 1 < count {
                    let first = rows[k + 1].firstInputRow(forOutputRow: done[k + 1])
                    ring[k] = max(ring[k], strip.upperBound - min(first, strip.upperBound))
                }
                done[k] = strip.upperBound
            }
        }
        ring[count - 1] = 0
        return ring
    }

    /// Per step, the first row a run of output rows `band` of the last step computes: the first
    /// input row the next step's first row reads (rows above it are another band's).
    static func firstRows(_ rows: [RowDependency], band: Range<Int>, into first: UnsafeMutablePointer<Int>) {
        guard let last = rows.indices.last else { return }
        first[last] = band.lowerBound
        for k in stride(from: last - 1, through: 0, by: -1) {
            first[k] = min(rows[k].outputRows, rows[k + 1].firstInputRow(forOutputRow: first[k + 1]))
        }
    }

    /// Calls `body(k, strip)` for each run of rows `strip` of step k that computing output rows
    /// `band` of the last step takes, in order: one output row at a time, working backwards the
    /// rows each step must have done (the input rows its reader reads), then forwards, each step
    /// computes the rows it has not done yet. `completing` also computes at the end the rows no
    /// later step reads (a stride-2 step may skip the last one), for inner tensors kept whole.
    /// Allocates nothing.
    static func forEachStrip(_ rows: [RowDependency], band: Range<Int>, completing: Bool,
                             _ body: (Int, Range<Int>) -> Void) {
        let count = rows.count
        guard count > 0, !band.isEmpty else { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count) { buffer in
            let done = buffer.baseAddress!, needed = done + count
            firstRows(rows, band: band, into: done)
            needed.initialize(from: done, count: count)
            for row in band.lowerBound + 1...band.upperBound {
                needed[count - 1] = row
                for k in stride(from: count - 1, to: 0, by: -1) {
                    needed[k - 1] = max(needed[k - 1], rows[k].inputRowsRead(forOutputRows: needed[k]))
                }
                for k in 0..<count where needed[k] > done[k] {
                    body(k, done[k]..<needed[k])
                    done[k] = needed[k]
                }
            }
            guard completing else { return }
            for k in 0..<count where done[k] < rows[k].outputRows {
                body(k, done[k]..<rows[k].outputRows)
            }
        }
    }

    /// Output tensors below this many bytes stay in the cache anyway.
    static let minimumOutputBytes = 512 * 1024
    /// A block gains only when its expansion is this large: below it (BlazeFace's 96 x 64 x 32,
    /// 786 KB) the tensors come back from the L3 cache quickly and the strips' extra kernel calls
    /// cost as much as they save.
    static let minimumExpansionBytes = 2 * 1024 * 1024
    /// A step in strips reads its weights once per strip: only steps whose output is this many
    /// times their weights (the early, wide layers) gain.
    static let minimumOutputToWeights = 32

    /// The runs of `operations` worth computing in strips: a mobile network's block, a convolution
    /// (the expansion), the depthwise convolution reading it and the convolution reading that (the
    /// projection), each with a batch of one, a large output and small weights. Only the block's
    /// own tensors stay alive together (a longer run keeps every full-size tensor in it alive: 83
    /// instead of 29 MB for CenterFace at 640 x 384).
    static func chains(_ operations: [OperationDescription], shapes: [[Int]?]) -> [RowStripChain] {
        var chains: [RowStripChain] = []
        var step = 0
        while step + 1 < operations.count {
            guard case .conv2D = operations[step].kind, case .depthwiseConv2D = operations[step + 1].kind,
                  operations[step + 1].inputs[0] == operations[step].outputs[0],
                  let expansion = rowDependency(operations[step], shapes: shapes),
                  let depthwise = rowDependency(operations[step + 1], shapes: shapes),
                  let expanded = shapes[operations[step].outputs[0]], expanded.reduce(4, *) >= minimumExpansionBytes
            else {
                step += 1
                continue
            }
            var rows = [expansion, depthwise]
            // The projection's fused residual must come from before the block (complete already).
            if step + 2 < operations.count, case .conv2D = operations[step + 2].kind,
               operations[step + 2].inputs[0] == operations[step + 1].outputs[0],
               !residual(of: operations[step + 2], isOneOf: operations[step].outputs + operations[step + 1].outputs),
               let projection = rowDependency(operations[step + 2], shapes: shapes) {
                rows.append(projection)
            }
            chains.append(RowStripChain(steps: step..<step + rows.count, rows: rows))
            step += rows.count
        }
        return chains
    }

    private static func residual(of operation: OperationDescription, isOneOf tensors: [Int]) -> Bool {
        operation.inputs.count > 3 && tensors.contains(operation.inputs[3])
    }

    /// The row dependency of a convolution worth running in strips, else nil.
    static func rowDependency(_ operation: OperationDescription, shapes: [[Int]?]) -> RowDependency? {
        let parameters: ConvolutionParameters
        switch operation.kind {
        case let .conv2D(p): parameters = p
        case let .depthwiseConv2D(p, _): parameters = p
        default: return nil
        }
        guard operation.inputs.count > 1, let input = shapes[operation.inputs[0]], let output = shapes[operation.outputs[0]],
              let filter = shapes[operation.inputs[1]], input.count == 4, output.count == 4, filter.count == 4,
              input[0] == 1, output[0] == 1 else { return nil }
        let outputBytes = output.reduce(1, *) * 4, weightBytes = filter.reduce(1, *) * 4
        guard outputBytes >= minimumOutputBytes, weightBytes * minimumOutputToWeights <= outputBytes else { return nil }
        return RowDependency(inputRows: input[1], outputRows: output[1], stride: parameters.strideH,
                             padTop: parameters.padding.top, reach: (filter[1] - 1) * parameters.dilationH)
    }
}
