/// How the pictures a detector is given should be sized: the detector's side of the scheduler's
/// decisions. The scheduler itself knows no detector.
package struct DetectionGeometry: Sendable, Equatable {
    /// Longer side of the picture a whole-frame pass works on (CenterFace's `--input-size`);
    /// `nil` when the detector works on the frame as it is.
    package var baseLongSide: Int?
    /// Side of the square picture a crop around a tracked face is resampled to. A crop is
    /// `cropFactor` times the face's size, so the face fills about `1 / cropFactor` of it.
    package var cropSide: Int
    /// Crop side over the face's longer side.
    package var cropFactor: Double
    /// Size of a tile's picture, and the scale of tiles relative to the frame (1 = native pixels).
    package var tileWidth: Int
    package var tileHeight: Int
    package var tileScale: Double
    /// The smallest face height, in the picture a detector sees, that it finds reliably.
    package var reliableFaceSize: Double
    /// Sides of the whole-frame picture are rounded up to a multiple of this (CenterFace sees in
    /// 32-pixel blocks).
    package var baseMultiple: Int

    /// Creates a geometry.
    package init(baseLongSide: Int?, cropSide: Int, cropFactor: Double = 2.5, tileWidth: Int, tileHeight: Int,
                tileScale: Double = 1, reliableFaceSize: Double, baseMultiple: Int = 1) {
        self.baseLongSide = baseLongSide
        self.cropSide = cropSide
        self.cropFactor = cropFactor
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.tileScale = tileScale
        self.reliableFaceSize = reliableFaceSize
        self.baseMultiple = max(1, baseMultiple)
    }

    /// A crop's picture is smaller than the whole-frame pass's (CenterFace's 96 px against 640;
    /// not BlazeFace, which letterboxes every picture to its one square input).
    package var cropsAreCheap: Bool { cropSide < (baseLongSide ?? Int.max) }

    /// The scale of the whole-frame pass for a frame of this size (at most 1).
    package func baseScale(width: Int, height: Int) -> Double {
        guard let side = baseLongSide else { return 1 }
        return min(1, Double(side) / Double(max(width, height, 1)))
    }

    /// Whether tiles cover a frame of this size: the whole-frame pass sees it clearly smaller than
    /// the tiles do (1080p at 640: a third).
    package func usesTiles(width: Int, height: Int) -> Bool {
        tileScale > baseScale(width: width, height: height) * 1.2
    }

    /// The size of the whole-frame pass's picture for a frame of this size: scaled by
    /// `baseScale`, each side rounded up to a multiple of `baseMultiple`.
    package func basePictureSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = baseScale(width: width, height: height)
        func side(_ size: Int) -> Int {
            let scaled = max(1, Int((Double(size) * scale).rounded()))
            return (scaled + baseMultiple - 1) / baseMultiple * baseMultiple
        }
        return (side(width), side(height))
    }
}
