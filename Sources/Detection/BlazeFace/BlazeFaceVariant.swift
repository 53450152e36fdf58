import FaceCore

/// The two BlazeFace detector models MediaPipe publishes, with their decoding constants.
public enum BlazeFaceVariant: String, Sendable, CaseIterable {
    /// 128x128 input, for faces within about 2 m of the camera (selfie footage).
    case short
    /// 192x192 input, for faces up to about 5 m away; the default.
    case full

    /// The model file in the models folder.
    package var fileName: String {
        switch self {
        case .short: return "face_detection_short_range.tflite"
        case .full: return "face_detection_full_range.tflite"
        }
    }

    /// Side of the square network input in pixels.
    public var inputSize: Int {
        switch self {
        case .short: return 128
        case .full: return 192
        }
    }

    /// MediaPipe's default minimum score.
    public var defaultThreshold: Double {
        switch self {
        case .short: return 0.5
        case .full: return 0.6
        }
    }

    /// Anchor layers as (stride, anchors per cell); layers with equal strides share one grid.
    var anchorLayers: [(stride: Int, count: Int)] {
        switch self {
        case .short: return [(8, 2), (16, 6)]
        case .full: return [(4, 1)]
        }
    }

    /// Number of anchors (rows of the network's outputs): 896 or 2304.
    package var anchorCount: Int {
        anchorLayers.reduce(0) { total, layer in
            let cells = (inputSize + layer.stride - 1) / layer.stride
            return total + cells * cells * layer.count
        }
    }

    /// Anchor centres in [0, 1] of the network input, row-major y, then x, then anchor.
    package func anchors() -> [Point] {
        var result: [Point] = []
        result.reserveCapacity(anchorCount)
        for layer in anchorLayers {
            let cells = (inputSize + layer.stride - 1) / layer.stride
            for y in 0..<cells {
                for x in 0..<cells {
                    let centre = Point(x: (Double(x) + 0.5) / Double(cells), y: (Double(y) + 0.5) / Double(cells))
                    for _ in 0..<layer.count { result.append(centre) }
                }
            }
        }
        return result
    }
}
