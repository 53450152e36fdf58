import FaceCore

/// How a frame sits inside the network input: scaled to fit (aspect kept), centred, black bars
/// on the axis with room left. Padding fractions are of the input's width and height.
package struct Letterbox: Sendable, Equatable {
    /// Frame width in pixels.
    package let frameWidth: Int
    /// Frame height in pixels.
    package let frameHeight: Int
    /// Network input size in pixels.
    package let inputWidth: Int
    package let inputHeight: Int
    /// Fraction of the input's width that is padding on each side (left = right).
    package let padX: Double
    /// Fraction of the input's height that is padding on each side (top = bottom).
    package let padY: Double

    /// The letterbox of a frame of this size in a `inputWidth` x `inputHeight` input (a square of
    /// the frame's longer side when not given).
    package init(frameWidth: Int, frameHeight: Int, inputWidth: Int? = nil, inputHeight: Int? = nil) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        let side = max(frameWidth, frameHeight, 1)
        self.inputWidth = max(1, inputWidth ?? side)
        self.inputHeight = max(1, inputHeight ?? side)
        let scale = min(Double(self.inputWidth) / Double(max(frameWidth, 1)),
                        Double(self.inputHeight) / Double(max(frameHeight, 1)))
        padX = (Double(self.inputWidth) - Double(frameWidth) * scale) / 2 / Double(self.inputWidth)
        padY = (Double(self.inputHeight) - Double(frameHeight) * scale) / 2 / Double(self.inputHeight)
    }

    /// The input's width and height in frame pixels (the frame plus its bars).
    package var extent: (width: Double, height: Double) {
        (Double(frameWidth) / (1 - 2 * padX), Double(frameHeight) / (1 - 2 * padY))
    }

    /// A normalised network-input point mapped back to frame pixels.
    package func framePoint(_ point: Point) -> (x: Double, y: Double) {
        ((point.x - padX) / (1 - 2 * padX) * Double(frameWidth),
         (point.y - padY) / (1 - 2 * padY) * Double(frameHeight))
    }
}
