/// A dlib network file read along a layout (`DlibLayout`): the input layer's convention and each
/// layer's parameters, from input to output.
///
/// The file nests the network from the outside in: the loss layer, then one version number per
/// layer from the output down to the input (tags and skips are nothing more), then the input
/// layer, then each layer's record from the input up, each followed by training state (flags,
/// gradient and cached-output tensors) that inference reads past.
struct DlibModelFile {
    /// A pooling window; 0 rows and columns mean the whole input (`avg_pool_everything`).
    struct Window: Equatable {
        var rows: Int, columns: Int
        var strideY: Int, strideX: Int
        var paddingY: Int, paddingX: Int
    }

    /// One layer's parameters.
    enum Layer {
        /// Filters in dlib's order [out][in][rows][columns], one bias per output channel.
        case convolution(filters: StoredFloats, filterShape: [Int], bias: [Float], strideY: Int, strideX: Int,
                         paddingY: Int, paddingX: Int, relu: Bool)
        /// Per-channel gamma and beta: output = gamma * input + beta.
        case affine(gamma: [Float], beta: [Float])
        /// max(0, x).
        case relu
        /// A layer stored as disabled (an affine or relu folded away by dlib itself).
        case identity
        /// Adds the output of the layout's tag.
        case addPrevious
        case maxPool(Window)
        case averagePool(Window)
        /// Weights in dlib's order [inputs][outputs]; bias nil for `fc_no_bias`.
        case fullyConnected(weights: StoredFloats, inputs: Int, outputs: Int, bias: [Float]?)
    }

    /// The input layer's mean red, green and blue, subtracted from 0...255 pixel values before
    /// the division by 256.
    var inputMeans: [Float] = []
    /// The input image's rows and columns.
    var inputRows = 0, inputColumns = 0
    /// The records of the layout's layers that have one (all but tags and skips), input first.
    var layers: [Layer] = []

    /// Reads `bytes` along `layout`; throws `DlibFormatError` for anything else.
    init(bytes: ModelBytes, layout: [DlibLayerKind]) throws {
        var stream = DlibStream(bytes: bytes)
        try stream.expectInteger(1, "loss layer version")
        let loss = try stream.string()
        guard loss == "loss_metric_2" else {
            throw DlibFormatError(reason: "loss layer '\(loss)' is not loss_metric_2", offset: stream.offset)
        }
        _ = try stream.real()  // training margin
        _ = try stream.real()  // training distance threshold

        // One version per layer, output first; the innermost layer's (which holds the input) is 2 or 3.
        let recordKinds = layout.filter(\.hasRecord)
        guard let first = layout.first, first.hasRecord else {
            throw DlibFormatError(reason: "layout does not start with a layer", offset: 0)
        }
        var innermostVersion = 0
        for (position, kind) in layout.enumerated().reversed() {
            let start = stream.offset
            let version = try stream.integer()
            if position == 0 {
                guard version == 2 || version == 3 else {
                    throw DlibFormatError(reason: "input layer version \(version)", offset: start)
                }
                innermostVersion = version
            } else if version != (kind.hasRecord ? 2 : 1) {
                throw DlibFormatError(reason: "layer \(position) has version \(version): not the expected network",
                                      offset: start)
            }
        }

        let input = try stream.string()
        guard input == "input_rgb_image_sized" else {
            throw DlibFormatError(reason: "input layer '\(input)' is not input_rgb_image_sized", offset: stream.offset)
        }
        inputMeans = [Float(try stream.real()), Float(try stream.real()), Float(try stream.real())]
        inputRows = try stream.integer()
        inputColumns = try stream.integer()
        guard (1...4096).contains(inputRows), (1...4096).contains(inputColumns) else {
            throw DlibFormatError(reason: "input size \(inputRows)x\(inputColumns)", offset: stream.offset)
        }

        for (index, kind) in recordKinds.enumerated() {
            layers.append(try Self.record(&stream, kind: kind, index: index))
            // Training state: three flags, the input gradient and the cached output, then the
            // parameter gradient (or, for the layer on the input, its gradient and sample factor).
            for _ in 0..<3 { _ = try stream.flag() }
            try stream.skipTensor()
            try stream.skipTensor()
            try stream.skipTensor()
            if index == 0, innermostVersion == 3 { _ = try stream.integer() }
        }
        guard stream.remaining == 0 else {
            throw DlibFormatError(reason: "\(stream.remaining) bytes after the last layer", offset: stream.offset)
        }
    }

    /// Layer `index`'s record, which must be of `kind`.
    private static func record(_ stream: inout DlibStream, kind: DlibLayerKind, index: Int) throws -> Layer {
        let start = stream.offset
        let name = try stream.string()
        func fail(_ reason: String) -> DlibFormatError {
            DlibFormatError(reason: "layer \(index) ('\(name)'): \(reason)", offset: start)
        }
        switch (kind, name) {
        case (.convolution, "con_4"), (.convolution, "con_5"), (.convolution, "con_6"):
            let params = try stream.tensor().values
            let count = try stream.integer()
            let rows = try stream.integer(), columns = try stream.integer()
            let strideY = try stream.integer(), strideX = try stream.integer()
            let paddingY = try stream.integer(), paddingX = try stream.integer()
            let filterShape = try stream.aliasShape()
            _ = try stream.aliasShape()  // the biases' view
            for _ in 0..<4 { _ = try stream.real() }  // learning-rate and weight-decay multipliers
            let useBias = name == "con_4" ? true : try stream.flag()
            let relu = name == "con_6" ? try stream.flag() : false
            let filterCount = filterShape.reduce(1, *)
            guard count > 0, filterShape.count == 4, filterShape[0] == count, filterShape[1] > 0,
                  filterShape[2] == rows, filterShape[3] == columns, strideY > 0, strideX > 0, paddingY >= 0,
                  paddingX >= 0, params.count == filterCount + (useBias ? count : 0) else {
                throw fail("filters \(filterShape) do not fit \(count) filters of \(rows)x\(columns) and "
                           + "\(params.count) parameters")
            }
            return .convolution(filters: params.slice(0..<filterCount), filterShape: filterShape,
                                bias: useBias ? params.slice(filterCount..<params.count).array
                                    : [Float](repeating: 0, count: count),
                                strideY: strideY, strideX: strideX, paddingY: paddingY, paddingX: paddingX, relu: relu)
        case (.affine, "affine_"), (.affine, "affine_2"):
            let params = try stream.tensor().values
            let gammaShape = try stream.aliasShape()
            _ = try stream.aliasShape()  // beta's view, the same shape
            let mode = try stream.integer()
            let disabled = name == "affine_2" ? try stream.flag() : false
            let channels = gammaShape.reduce(1, *)
            guard mode == 0 else { throw fail("only per-channel (convolution mode) affine layers are supported") }
            if disabled { return .identity }
            guard channels > 0, gammaShape[1] == channels, params.count == 2 * channels else {
                throw fail("gamma \(gammaShape) does not fit \(params.count) parameters")
            }
            return .affine(gamma: params.slice(0..<channels).array, beta: params.slice(channels..<params.count).array)
        case (.relu, "relu_"):
            return .relu
        case (.relu, "relu_2"):
            return try stream.flag() ? .identity : .relu
        case (.addPrevious, "add_prev_"):
            return .addPrevious
        case (.maxPool, "max_pool_2"), (.averagePool, "avg_pool_2"):
            let window = Window(rows: try stream.integer(), columns: try stream.integer(),
                                strideY: try stream.integer(), strideX: try stream.integer(),
                                paddingY: try stream.integer(), paddingX: try stream.integer())
            guard window.rows >= 0, window.columns >= 0, window.strideY > 0, window.strideX > 0,
                  window.paddingY >= 0, window.paddingX >= 0, (window.rows == 0) == (window.columns == 0) else {
                throw fail("bad pooling window")
            }
            return kind == .maxPool ? .maxPool(window) : .averagePool(window)
        case (.fullyConnected, "fc_2"), (.fullyConnected, "fc_3"):
            let outputs = try stream.integer(), inputs = try stream.integer()
            let params = try stream.tensor().values
            _ = try stream.aliasShape()  // the weights' view
            _ = try stream.aliasShape()  // the biases' view
            let biasMode = try stream.integer()
            for _ in 0..<4 { _ = try stream.real() }  // learning-rate and weight-decay multipliers
            let useBias = name == "fc_3" ? try stream.flag() : true
            let hasBias = biasMode == 0 && useBias
            let product = outputs.multipliedReportingOverflow(by: inputs)
            guard outputs > 0, inputs > 0, !product.overflow, biasMode == 0 || biasMode == 1,
                  params.count >= product.partialValue + (hasBias ? outputs : 0) else {
                throw fail("\(params.count) parameters for \(inputs) inputs and \(outputs) outputs")
            }
            let weightCount = product.partialValue
            return .fullyConnected(weights: params.slice(0..<weightCount), inputs: inputs, outputs: outputs,
                                   bias: hasBias ? params.slice(weightCount..<(weightCount + outputs)).array : nil)
        default:
            throw fail("expected a \(kind) layer: not the expected network")
        }
    }
}
