/// How the pictures a detector is given should be sized: the detector's side of the scheduler's
/// decisions. The scheduler itself knows no detector.
public struct DetectionGeometry: Sendable, Equatable {
    /// Longer side of the picture a whole-frame pass works on (CenterFace's `--input-size`);
    /// `nil` when the detector works on the frame as it is.
    public var baseLongSide: Int?
    /// Side of the square picture a crop around a tracked face is resampled to. A crop is
    /// `cropFactor` times the face's size, so the face fills about `1 / cropFactor` of it.
    public var cropSide: Int
    /// Crop side over the face's longer side.
    public var cropFactor: Double
    /// Size of a tile's picture, and the scale of tiles relative to the frame (1 = native pixels).
    public var tileWidth: Int
    public var tileHeight: Int
    public var tileScale: Double
    /// The smallest face height, in the picture a detector sees, that it finds reliably.
    public var reliableFaceSize: Double

    /// Creates a geometry.
    public init(baseLongSide: Int?, cropSide: Int, cropFactor: Double = 2.5, tileWidth: Int, tileHeight: Int,
                tileScale: Double = 1, reliableFaceSize: Double) {
        self.baseLongSide = baseLongSide
        self.cropSide = cropSide
        self.cropFactor = cropFactor
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.tileScale = tileScale
        self.reliableFaceSize = reliableFaceSize
    }

    /// The scale of the whole-frame pass for a frame of this size (at most 1).
    public func baseScale(width: Int, height: Int) -> Double {
        guard let side = baseLongSide else { return 1 }
        return min(1, Double(side) / Double(max(width, height, 1)))
    }
}
