import NeuralKernels

/// A loaded network ready to run: shapes inferred, one memory arena planned for all
/// intermediate tensors, weights packed for the kernels. `run()` allocates nothing.
///
/// Fill `input(0)` (NHWC float32), call `run()`, read `output(i)`. An instance is not
/// thread-safe; make one per thread (they are cheap next to the weights they pack).
package final class NeuralNetwork {
    /// The graph's name (the model file name for loaded models).
    package let name: String
    /// Shape of each input, in `GraphDescription.inputs` order.
    package let inputShapes: [[Int]]
    /// Shape of each output, in `GraphDescription.outputs` order.
    package let outputShapes: [[Int]]
    /// Tensor names of the inputs.
    package let inputNames: [String]
    /// Tensor names of the outputs.
    package let outputNames: [String]
    /// Floats in the activation arena (what the memory planner achieved), without the tensors
    /// `run()` keeps in rings of rows.
    package let arenaFloatCount: Int
    /// Floats of the second arena, for the ringed tensors whole (`run(threads:)`, profiling).
    package let ringedFloatCount: Int
    /// Floats all activation tensors would need without reuse, for comparison.
    package let unplannedFloatCount: Int

    private let storage: FloatStorage
    /// The activation arena (shared with networks of other sizes through a `SharedArena`).
    package let arenaBlock: ArenaBlock
    /// The arena of the tensors `run()` keeps in rings of rows, written only when steps run whole
    /// (`run(threads:)`, profiling): until then its pages are never touched. Nil without rings.
    package let ringedBlock: ArenaBlock?
    /// Packed convolution weights, perhaps shared with networks of other input sizes (kept alive
    /// with the kernels).
    private let weights: PackedWeights
    private let steps: [NetworkStep]
    /// Rough multiply-adds per step (output elements x taps per element), to decide splitting.
    private let stepWork: [Int]
    /// Runs of steps computed in row strips by `run()`, in step order.
    let chains: [RowStripChain]
    /// Per chain, the steps `run()` computes it with: the same kernels with the block's inner
    /// tensors (the expansion, the depthwise output) in rings of a few rows, which stay in the
    /// cache instead of being written back to memory whole (where a tensor has no other reader).
    /// `run(threads:)` splits whole steps and uses the whole tensors.
    private let chainSteps: [[NetworkStep]]
    /// How many tensors `run()` keeps in rings of rows (tests).
    let ringedTensorCount: Int
    /// Per chain, whether `run()` keeps every inner tensor in rings: then `run(threads:)` splits
    /// the chain's output rows into bands, each thread computing its bands in strips with rings
    /// of its own (`bandSteps`); else it runs the chain's steps whole, each split over the threads.
    private let fullyRinged: [Bool]
    /// Per chain, per thread of `run(threads:)`, the chain's steps with that thread's rings (made
    /// on the first such run: the video pipeline's one-thread networks never allocate them).
    private var bandSteps: [[[NetworkStep]]] = []
    /// Per chain, per step, the floats of one row of its output (a ring's row).
    private let chainRowFloats: [[Int]]
    /// Bands of output rows per chain in `run(threads:)` (threads x `bandsPerThread`, at most one
    /// per `minimumBandRows` rows).
    private var chainBands: [Int] = []
    /// Worker threads for `run(threads:)`, started on first use (threads - 1 of them).
    private var pool: OpaquePointer?
    private var poolThreads = 1
    private let inputPointers: [UnsafeMutablePointer<Float>]
    private let outputPointers: [UnsafeMutablePointer<Float>]

    /// The build of the C kernels this network runs.
    package let kernelPath: KernelPath

    /// Checks `graph`, infers every shape, plans the arena and prepares the kernels for `path`.
    ///
    /// Networks of one graph planned for other input sizes may pass the same `shared` weights:
    /// convolution weights are then packed once for all of them.
    /// `rowStrips: false` runs every step whole, one after another (to compare with).
    package init(graph original: GraphDescription, kernelPath path: KernelPath = .default,
                 sharing shared: PackedWeights? = nil, arena sharedArena: SharedArena? = nil,
                 rowStrips: Bool = true) throws {
        let weights = shared ?? PackedWeights()
        self.weights = weights
        kernelPath = path
        let graph = GraphOptimizer.fuseActivations(original)
        name = graph.name
        let tensors = graph.tensors
        func fail(_ reason: String) -> NeuralRuntimeError { .invalidGraph(model: graph.name, reason: reason) }
        func tensorName(_ index: Int) -> String { "'\(tensors[index].name)' (#\(index))" }

        for index in graph.inputs + graph.outputs where !tensors.indices.contains(index) {
            throw fail("graph input/output \(index) is not a tensor")
        }
        guard !graph.inputs.isEmpty, !graph.outputs.isEmpty else { throw fail("graph has no inputs or outputs") }

        // Shapes: constants and inputs are declared; everything else is inferred op by op.
        var shapes = [[Int]?](repeating: nil, count: tensors.count)
        for (index, tensor) in tensors.enumerated() {
            guard let constant = tensor.constant else { continue }
            guard ShapeArithmetic.elementCount(tensor.shape) == constant.count else {
                throw fail("constant \(tensorName(index)) has \(constant.count) values for shape \(tensor.shape)")
            }
            // A file of unknown hash with flipped bytes: NaN or infinity would spread to every output.
            guard constant.allSatisfy(\.isFinite) else {
                throw NeuralRuntimeError.malformed(model: graph.name, reason: "weights \(tensorName(index)) hold NaN or infinity (the file is damaged)")
            }
            shapes[index] = tensor.shape
        }
        for index in graph.inputs {
            let shape = tensors[index].shape
            guard tensors[index].constant == nil, !shape.isEmpty, shape.allSatisfy({ $0 > 0 }),
                  ShapeArithmetic.elementCount(shape).map({ $0 < 1 << 28 }) == true
            else { throw fail("input \(tensorName(index)) has unusable shape \(shape)") }
            shapes[index] = shape
        }
        var producer = [Int](repeating: -1, count: tensors.count)
        var lastUse = [Int](repeating: -1, count: tensors.count)
        for (step, operation) in graph.operations.enumerated() {
            guard operation.outputs.count == 1, tensors.indices.contains(operation.outputs[0]) else {
                throw fail("operation \(step) must have exactly one output tensor")
            }
            var inputShapes: [[Int]?] = []
            for (position, index) in operation.inputs.enumerated() {
                if index == -1, position == 2 { inputShapes.append(nil); continue }
                guard tensors.indices.contains(index) else { throw fail("operation \(step) reads tensor \(index)") }
                guard let shape = shapes[index] else {
                    throw fail("operation \(step) reads \(tensorName(index)) before it is written")
                }
                inputShapes.append(shape)
                lastUse[index] = step
            }
            let output = operation.outputs[0]
            guard shapes[output] == nil else { throw fail("\(tensorName(output)) is written twice") }
            let shape: [Int]
            do {
                shape = try ShapeInference.outputShape(operation.kind, inputs: inputShapes)
            } catch let issue as GraphIssue {
                throw fail("operation \(step) -> \(tensorName(output)): \(issue.reason)")
            }
            guard shape.allSatisfy({ $0 > 0 }), ShapeArithmetic.elementCount(shape).map({ $0 < 1 << 28 }) == true else {
                throw fail("operation \(step) gives unusable shape \(shape)")
            }
            let declared = tensors[output].shape
            if !declared.isEmpty, declared != shape {
                throw fail("\(tensorName(output)) is declared \(declared) but computes to \(shape)")
            }
            shapes[output] = shape
            producer[output] = step
        }
        for index in graph.outputs {
            guard shapes[index] != nil, tensors[index].constant == nil else {
                throw fail("output \(tensorName(index)) is never computed")
            }
        }

        // Residual adds and PReLUs folded into the convolutions before them (shapes are known now),
        // then each tensor's producer and last reader over the operations that remain.
        let operations = GraphOptimizer.fuseIntoConvolutions(graph.operations, tensors: tensors, shapes: shapes,
                                                              graphOutputs: graph.outputs)
        producer = [Int](repeating: -1, count: tensors.count)
        lastUse = [Int](repeating: -1, count: tensors.count)
        for (step, operation) in operations.enumerated() {
            for index in operation.inputs where index >= 0 { lastUse[index] = step }
            producer[operation.outputs[0]] = step
        }
        for index in graph.outputs { lastUse[index] = operations.count }
        // Every tensor a strip run touches stays alive (unshared) until the run's last step.
        let chains = rowStrips ? RowStripPlanner.chains(operations, shapes: shapes) : []
        for chain in chains {
            for step in chain.steps {
                for index in operations[step].inputs + operations[step].outputs where index >= 0 {
                    lastUse[index] = max(lastUse[index], chain.steps.upperBound - 1)
                }
            }
        }

        // The chains' inner tensors that nothing else reads: `run()` keeps them in rings of rows
        // (below), so only whole-step runs need them whole.
        var readers = [Int](repeating: 0, count: tensors.count)
        for operation in operations { for index in operation.inputs where index >= 0 { readers[index] += 1 } }
        var ringRows: [Int: Int] = [:]
        for chain in chains {
            for (k, rows) in RowStripPlanner.ringRows(chain.rows).enumerated() where rows > 0 {
                let tensor = operations[chain.steps.lowerBound + k].outputs[0]
                guard readers[tensor] == 1, !graph.outputs.contains(tensor), let shape = shapes[tensor], shape.count == 4,
                      rows < shape[1] else { continue }
                ringRows[tensor] = rows
            }
        }

        // Memory plans over the activation tensors (everything that is not a constant): one arena
        // for what `run()` writes, another for the ringed tensors whole (CenterFace at 640 x 384:
        // 6 and 27 MB instead of 33 MB together, of which a run touched all).
        var planned: [Int] = [], ringed: [Int] = []
        var requests: [ArenaPlanner.Request] = [], ringedRequests: [ArenaPlanner.Request] = []
        for index in tensors.indices where tensors[index].constant == nil {
            guard let shape = shapes[index], producer[index] >= 0 || graph.inputs.contains(index) else { continue }
            let first = graph.inputs.contains(index) ? 0 : producer[index]
            let request = ArenaPlanner.Request(size: shape.reduce(1, *), first: first, last: max(first, lastUse[index]))
            if ringRows[index] != nil {
                ringedRequests.append(request)
                ringed.append(index)
            } else {
                requests.append(request)
                planned.append(index)
            }
        }
        let plan = ArenaPlanner.plan(requests)
        let ringedPlan = ArenaPlanner.plan(ringedRequests)
        let storage = FloatStorage()
        // The arena is the network's largest buffer: its failure is an error like any other.
        let arenaBlock = try sharedArena?.block(floats: plan.size) ?? ArenaBlock(floats: plan.size)
        let ringedBlock = ringed.isEmpty ? nil
            : try sharedArena?.ringedBlock(floats: ringedPlan.size) ?? ArenaBlock(floats: ringedPlan.size, countedWhenUsed: true)
        self.arenaBlock = arenaBlock
        self.ringedBlock = ringedBlock
        let arena = arenaBlock.start
        var pointers = [UnsafeMutablePointer<Float>?](repeating: nil, count: tensors.count)
        for (slot, index) in planned.enumerated() { pointers[index] = arena + plan.offsets[slot] }
        if let ringedBlock {
            for (slot, index) in ringed.enumerated() { pointers[index] = ringedBlock.start + ringedPlan.offsets[slot] }
        }
        // Constants are copied into the storage only for kernels that read them in place (an ADD's
        // second operand, say): weights that kernels pack are not copied twice.
        var constantCopies: [Int: UnsafeMutablePointer<Float>] = [:]
        func constantPointer(_ index: Int) -> UnsafeMutablePointer<Float>? {
            if let copy = constantCopies[index] { return copy }
            guard let constant = tensors[index].constant else { return nil }
            let copy = storage.copy(constant)
            constantCopies[index] = copy
            return copy
        }

        var steps: [NetworkStep] = []
        var stepWork: [Int] = []
        for (step, operation) in operations.enumerated() {
            let outputCount = shapes[operation.outputs[0]].map { $0.reduce(1, *) } ?? 0
            switch operation.kind {
            case .conv2D:
                let filter = shapes[operation.inputs[1]] ?? []
                stepWork.append(outputCount * filter.dropFirst().reduce(1, *))
            case .transposeConv2D:
                // Each output value gathers about in_c products per tap landing on it.
                let filter = shapes[operation.inputs[1]] ?? []
                stepWork.append(outputCount * (filter.last ?? 1))
            case .depthwiseConv2D:
                let filter = shapes[operation.inputs[1]] ?? []
                stepWork.append(outputCount * filter.dropFirst().dropLast().reduce(1, *))
            default:
                stepWork.append(outputCount)
            }
            do {
                steps.append(try NetworkStep.make(operation, shapes: shapes, pointers: pointers, constant: constantPointer,
                                                  tensors: tensors, storage: storage, weights: weights, step: step, path: path))
            } catch let issue as GraphIssue {
                throw NeuralRuntimeError.unsupported(model: graph.name, reason: "operation \(step): \(issue.reason)")
            }
        }
        // Rings for the chains' inner tensors that nothing else reads.
        var chainSteps: [[NetworkStep]] = []
        var fullyRinged: [Bool] = [], chainRowFloats: [[Int]] = []
        var ringedTensorCount = 0
        for chain in chains {
            let outputs = chain.steps.map { operations[$0].outputs[0] }
            let rowFloats = outputs.map { shapes[$0].map { $0[2] * $0[3] } ?? 0 }
            let ringed = Self.ringed(Array(steps[chain.steps]), rows: outputs.map { ringRows[$0] ?? 0 },
                                     rowFloats: rowFloats, storage: storage)
            chainSteps.append(ringed.steps)
            chainRowFloats.append(rowFloats)
            ringedTensorCount += ringed.count
            fullyRinged.append(ringed.count == chain.steps.count - 1)
        }
        // A tensor whose kernels cannot use a ring is written whole by `run()` too.
        if ringedTensorCount < ringRows.count { ringedBlock?.markUsed() }
        self.chainSteps = chainSteps
        self.fullyRinged = fullyRinged
        self.chainRowFloats = chainRowFloats
        self.ringedTensorCount = ringedTensorCount
        self.storage = storage
        self.steps = steps
        self.chains = chains
        self.stepWork = stepWork
        arenaFloatCount = plan.size
        ringedFloatCount = ringedPlan.size
        unplannedFloatCount = requests.reduce(0) { $0 + $1.size }
        inputShapes = graph.inputs.map { shapes[$0] ?? [] }
        outputShapes = graph.outputs.map { shapes[$0] ?? [] }
        inputNames = graph.inputs.map { tensors[$0].name }
        outputNames = graph.outputs.map { tensors[$0].name }
        inputPointers = graph.inputs.map { pointers[$0] ?? arena }
        outputPointers = graph.outputs.map { pointers[$0] ?? arena }
    }

    /// The memory of input `index`, to be filled before `run()`. Valid while the network lives.
    package func input(_ index: Int = 0) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: inputPointers[index], count: inputShapes[index].reduce(1, *))
    }

    /// The memory of output `index`, valid after `run()` until the next `run()`.
    package func output(_ index: Int = 0) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(start: outputPointers[index], count: outputShapes[index].reduce(1, *))
    }

    /// Floats of packed convolution weights the network reads per run (shared with networks of
    /// the same graph planned for other sizes).
    package var packedWeightFloatCount: Int { weights.floatCount }

    /// Images one run takes (the first input's first axis; `ResizableNetwork.network(batch:height:width:)`).
    package var batch: Int { inputShapes[0].first ?? 1 }

    /// Image `image`'s share of input `index` (of a network planned for a batch).
    package func input(_ index: Int, image: Int) -> UnsafeMutableBufferPointer<Float> {
        let whole = input(index), share = whole.count / max(1, batch)
        return UnsafeMutableBufferPointer(rebasing: whole[image * share..<(image + 1) * share])
    }

    /// Image `image`'s share of output `index`, valid after `run()` until the next `run()`.
    package func output(_ index: Int, image: Int) -> UnsafeBufferPointer<Float> {
        let whole = output(index), share = whole.count / max(1, batch)
        return UnsafeBufferPointer(rebasing: whole[image * share..<(image + 1) * share])
    }

    /// The prepared steps, for `profileKernels` (which runs them whole, ringed tensors too).
    var stepsForProfiling: [NetworkStep] {
        ringedBlock?.markUsed()
        return steps
    }

    /// Runs every operation once on the current inputs.
    package func run() {
        withExtendedLifetime(storage) {
            var index = 0, nextChain = 0
            while index < steps.count {
                if nextChain < chains.count, chains[nextChain].steps.lowerBound == index {
                    runInStrips(chains[nextChain], steps: chainSteps[nextChain])
                    index = chains[nextChain].steps.upperBound
                    nextChain += 1
                } else {
                    steps[index].run()
                    index += 1
                }
            }
        }
    }

    /// `steps` (a chain's) with the output of each step k where `rows[k] > 0` in a ring of that
    /// many rows of `rowFloats[k]` floats, which step k + 1 reads; and how many rings the kernels
    /// could take (a tensor whose kernels cannot stays whole).
    private static func ringed(_ steps: [NetworkStep], rows: [Int], rowFloats: [Int],
                               storage: FloatStorage) -> (steps: [NetworkStep], count: Int) {
        var variant = steps, count = 0
        for k in steps.indices.dropLast() where rows[k] > 0 {
            let ring = storage.allocate(rows[k] * rowFloats[k] + 64)
            guard let writer = variant[k].writingRing(ring, rows: rows[k]),
                  let reader = variant[k + 1].readingRing(UnsafePointer(ring), rows: rows[k]) else { continue }
            variant[k] = writer
            variant[k + 1] = reader
            count += 1
        }
        return (variant, count)
    }

    /// Runs `chain` one output row of its last step at a time (`RowStripPlanner.forEachStrip`).
    private func runInStrips(_ chain: RowStripChain, steps: [NetworkStep]) {
        RowStripPlanner.forEachStrip(chain.rows, band: 0..<chain.rows[chain.rows.count - 1].outputRows,
                                     completing: true) { k, rows in
            steps[k].run(rows: rows)
        }
    }

    /// Runs every operation once, splitting the work across `threads` threads (for one image when
    /// the cores are otherwise idle; the video pipeline already runs one network per core and uses
    /// `run()`). A chain whose inner tensors `run()` keeps in rings is split into bands of output
    /// rows, each computed in strips like `run()` with the rings of the thread that claims it
    /// (rows shared by two bands are computed by both); other convolutions split their output;
    /// small steps run on the calling thread. The workers are this network's own (a NeuralKernels
    /// pool: they spin between steps, sleep between runs), and each value is computed by the same
    /// kernel code as in `run()`, so results are identical.
    package func run(threads: Int) {
        guard threads > 1 else { return run() }
        if pool == nil || poolThreads != threads {
            if let pool { nk_pool_destroy(pool) }
            pool = nk_pool_create(Int32(threads - 1))
            poolThreads = threads
            prepareBands(threads: threads)
        }
        if fullyRinged.contains(false) { ringedBlock?.markUsed() }
        withExtendedLifetime(storage) {
            var index = 0, nextChain = 0
            while index < steps.count {
                if nextChain < chains.count, chains[nextChain].steps.lowerBound == index {
                    let chain = nextChain
                    nextChain += 1
                    if fullyRinged[chain] {
                        var band = BandRun(rows: chains[chain].rows, threadSteps: bandSteps[chain])
                        withUnsafeMutablePointer(to: &band) { band in
                            nk_pool_run(pool, { context, part, parts, thread in
                                context?.assumingMemoryBound(to: BandRun.self).pointee.run(part: Int(part), of: Int(parts),
                                                                                           thread: Int(thread))
                            }, band, Int32(chainBands[chain]))
                        }
                        index = chains[chain].steps.upperBound
                        continue
                    }
                }
                let step = steps[index]
                if step.isSplittable, stepWork[index] >= Self.parallelWorkThreshold {
                    withUnsafePointer(to: step) { step in
                        nk_pool_run(pool, { context, part, parts, _ in
                            context?.assumingMemoryBound(to: NetworkStep.self).pointee.run(part: Int(part), of: Int(parts))
                        }, UnsafeMutableRawPointer(mutating: step), Int32(threads * Self.partsPerThread))
                    }
                } else {
                    step.run()
                }
                index += 1
            }
        }
    }

    /// Each thread's rings for the chains `run(threads:)` splits into bands, sized for the bands
    /// (made again, from the network's storage, when the thread count changes).
    private func prepareBands(threads: Int) {
        bandSteps = []
        chainBands = []
        for (index, chain) in chains.enumerated() {
            let outputRows = chain.rows[chain.rows.count - 1].outputRows
            let bands = max(1, min(threads * Self.bandsPerThread, outputRows / Self.minimumBandRows))
            chainBands.append(bands)
            guard fullyRinged[index] else { bandSteps.append([]); continue }
            let rows = RowStripPlanner.ringRows(chain.rows, bands: (0..<bands).map {
                WorkShare.range(part: $0, of: bands, total: outputRows)
            })
            bandSteps.append((0..<threads).map { _ in
                Self.ringed(Array(steps[chain.steps]), rows: rows, rowFloats: chainRowFloats[index], storage: storage).steps
            })
        }
    }

    deinit {
        if let pool { nk_pool_destroy(pool) }
    }

    /// Parts each splittable step is cut into per thread (claimed dynamically, so a thread the OS
    /// preempts holds up at most one small part).
    static let partsPerThread = 4

    /// Bands of output rows each thread takes of a chain in `run(threads:)` (more than one, so
    /// that a thread the OS preempts holds up less; each band recomputes a row or two of the
    /// expansion its neighbour also computes).
    static let bandsPerThread = 2
    /// Output rows below which a chain's band is not made smaller.
    static let minimumBandRows = 8

    /// Multiply-adds below which a step is not worth handing to other threads.
    static let parallelWorkThreshold = 400_000
}

/// One chain of `NeuralNetwork.run(threads:)` split into bands of output rows: what a thread
/// running band `part` of `parts` needs.
private struct BandRun {
    let rows: [RowDependency]
    /// Per thread, the chain's steps writing and reading that thread's rings.
    let threadSteps: [[NetworkStep]]

    func run(part: Int, of parts: Int, thread: Int) {
        let steps = threadSteps[thread]
        let band = WorkShare.range(part: part, of: parts, total: rows[rows.count - 1].outputRows)
        RowStripPlanner.forEachStrip(rows, band: band, completing: false) { k, strips in
            steps[k].run(rows: strips)
        }
    }
}
