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

    /// Number of anchors (rows of the network's outputs) at the square input: 896 or 2304.
    package var anchorCount: Int { anchorCount(width: inputSize, height: inputSize) }

    /// Number of anchors for a `width` x `height` input.
    package func anchorCount(width: Int, height: Int) -> Int {
        anchorLayers.reduce(0) { total, layer in
            total + Self.cells(width, layer.stride) * Self.cells(height, layer.stride) * layer.count
        }
    }

    /// Anchor centres in [0, 1] of a `width` x `height` network input (the square one by
    /// default), row-major y, then x, then anchor.
    package func anchors(width: Int? = nil, height: Int? = nil) -> [Point] {
        let width = width ?? inputSize, height = height ?? inputSize
        var result: [Point] = []
        result.reserveCapacity(anchorCount(width: width, height: height))
        for layer in anchorLayers {
            let columns = Self.cells(width, layer.stride), rows = Self.cells(height, layer.stride)
            for y in 0..<rows {
                for x in 0..<columns {
                    let centre = Point(x: (Double(x) + 0.5) / Double(columns), y: (Double(y) + 0.5) / Double(rows))
                    for _ in 0..<layer.count { result.append(centre) }
                }
            }
        }
        return result
    }

    /// Side of the network input across the frame's shorter side: the longer side's `inputSize`
    /// scaled by the frame's aspect, rounded up to a multiple of 32 (the networks halve the
    /// picture five times), never above `inputSize`. Only the letterbox bars shrink: a 16:9 frame
    /// runs at 192 x 128 instead of 192 x 192: the same picture, a third fewer pixels.
    package func shortInputSide(frameWidth: Int, frameHeight: Int) -> Int {
        let long = max(frameWidth, frameHeight, 1), short = max(min(frameWidth, frameHeight), 1)
        let scaled = Int((Double(inputSize) * Double(short) / Double(long)).rounded(.up))
        return min(inputSize, max(32, (scaled + 31) / 32 * 32))
    }

    private static func cells(_ size: Int, _ stride: Int) -> Int { (size + stride - 1) / stride }
}
