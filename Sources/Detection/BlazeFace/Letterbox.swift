import FaceCore

/// How a frame sits inside the square network input: centred, aspect kept, black bars on the
/// short axis. Padding fractions are of the square's side.
package struct Letterbox: Sendable, Equatable {
    /// Frame width in pixels.
    package let frameWidth: Int
    /// Frame height in pixels.
    package let frameHeight: Int
    /// Fraction of the square's width that is padding on each side (left = right).
    package let padX: Double
    /// Fraction of the square's height that is padding on each side (top = bottom).
    package let padY: Double

    /// The letterbox of a frame of this size.
    package init(frameWidth: Int, frameHeight: Int) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        let side = Double(max(frameWidth, frameHeight, 1))
        padX = (side - Double(frameWidth)) / 2 / side
        padY = (side - Double(frameHeight)) / 2 / side
    }

    /// Side of the square in frame pixels.
    package var side: Int { max(frameWidth, frameHeight) }

    /// A normalised network-input point mapped back to frame pixels.
    package func framePoint(_ point: Point) -> (x: Double, y: Double) {
        ((point.x - padX) / (1 - 2 * padX) * Double(frameWidth),
         (point.y - padY) / (1 - 2 * padY) * Double(frameHeight))
    }
}
