/// One layer of a dlib network type, as its C++ type spells it. dlib files store each layer's
/// parameters but not the type itself: which tag a `skip` or `add_prev` refers to is known only
/// from the network's definition, so the reader walks the file along a layout.
enum DlibLayerKind: Equatable {
    /// `con`: convolution with bias.
    case convolution
    /// `affine`: per-channel scale and shift (batch normalisation frozen for inference).
    case affine
    /// `relu`.
    case relu
    /// `max_pool`.
    case maxPool
    /// `avg_pool` (a 0x0 window: `avg_pool_everything`).
    case averagePool
    /// `fc` / `fc_no_bias`.
    case fullyConnected
    /// `tagN`: remembers its input under N; no parameters, nothing in the file but a version.
    case tag(Int)
    /// `skipN`: continues from the output of the nearest `tagN` below; likewise only a version.
    case skip(Int)
    /// `add_prevN`: adds its input and the nearest `tagN`'s output, zero-extending the smaller
    /// one in channels, rows and columns (the downsampling blocks of a ResNet need this).
    case addPrevious(tag: Int)

    /// Whether the file holds a parameter record for the layer (everything but tags and skips).
    var hasRecord: Bool {
        switch self {
        case .tag, .skip: return false
        default: return true
        }
    }
}

/// Network layouts the dlib reader knows.
enum DlibLayout {
    /// dlib's face-recognition ResNet (`dlib_face_recognition_resnet_model_v1.dat`, 128-d face
    /// descriptors), from input to output, as dlib's dnn_face_recognition_ex.cpp defines it:
    ///
    ///     block<N,stride>  = con<N,3x3,1> . relu . affine . con<N,3x3,stride>   (read right to left)
    ///     ares<N>          = relu(add_prev1(block<N,1>(tag1(x))))
    ///     ares_down<N>     = relu(add_prev2(avg_pool<2x2,2>(skip1(tag2(block<N,2>(tag1(x)))))))
    ///     network          = fc_no_bias<128>(avg_pool_everything(level0..level4(max_pool<3x3,2>(
    ///                          relu(affine(con<32,7x7,2>(150x150 RGB input)))))))
    ///
    /// with level4 = 3 x ares<32>, level3 = ares_down<64> + 3 x ares<64>, level2 = ares_down<128> +
    /// 2 x ares<128>, level1 = ares_down<256> + 2 x ares<256>, level0 = ares_down<256>. The filter
    /// counts, strides and paddings themselves come from the file.
    static let faceRecognitionResNet: [DlibLayerKind] = {
        let block: [DlibLayerKind] = [.convolution, .affine, .relu, .convolution, .affine]
        let residual: [DlibLayerKind] = [.tag(1)] + block + [.addPrevious(tag: 1), .relu]
        let residualDown: [DlibLayerKind] = [.tag(1)] + block + [.tag(2), .skip(1), .averagePool,
                                                                 .addPrevious(tag: 2), .relu]
        func level(down: Bool, residuals: Int) -> [DlibLayerKind] {
            (down ? residualDown : []) + Array(repeatElement(residual, count: residuals).joined())
        }
        return [.convolution, .affine, .relu, .maxPool]
            + level(down: false, residuals: 3)  // level4, 32 filters
            + level(down: true, residuals: 3)   // level3, 64
            + level(down: true, residuals: 2)   // level2, 128
            + level(down: true, residuals: 2)   // level1, 256
            + level(down: true, residuals: 0)   // level0, 256
            + [.averagePool, .fullyConnected]
    }()
}
