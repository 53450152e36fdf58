import FaceCore

/// How good a picture of a face a chip is, to keep a track's best embeddings: the product of
/// three factors in 0...1, so a face that is small, turned or blurred ranks low on any count.
/// - size: the eye distance in frame pixels over the chip's (about 53 pixels), capped at 1 (a
///   smaller face is enlarged into the chip and carries less detail);
/// - frontality: 1 when the nose tip sits where the template has it, falling to 0 when it is off
///   sideways by 40% of the eye distance (a head turned by roughly 45 degrees); 0.5 when the
///   detector gives no nose;
/// - sharpness: the mean squared Laplacian of the chip's middle (green channel, 0...255 units),
///   L / (L + 100), so blur and heavy compression lower it.
package enum FaceQuality {
    /// The score of `face` cut as `chip`, whose pixels (`FaceChip.sample` with `scale`) are in `pixels`.
    package static func score(face: FaceObservation, chip: FaceChip, pixels: UnsafeBufferPointer<Float>,
                              scale: Float) -> Double {
        let templateEyes = FaceChip.rightEye.x - FaceChip.leftEye.x
        var size = 0.0
        if let left = face.leftEye, let right = face.rightEye {
            size = min(1, left.distance(to: right) / templateEyes)
        }
        var frontality = 0.5
        if let nose = face.nose {
            let offset = abs(chip.frameToChip.apply(nose).x - FaceChip.nose.x) / templateEyes
            frontality = max(0, 1 - offset / 0.4)
        }
        let laplacian = meanSquaredLaplacian(pixels, scale: scale)
        return size * frontality * laplacian / (laplacian + 100)
    }

    /// The mean squared 4-neighbour Laplacian of the green channel over the chip's middle 90x90.
    static func meanSquaredLaplacian(_ pixels: UnsafeBufferPointer<Float>, scale: Float) -> Double {
        let size = FaceChip.size
        guard pixels.count >= size * size * 3, scale != 0 else { return 0 }
        func green(_ x: Int, _ y: Int) -> Double { Double(pixels[(y * size + x) * 3 + 1] / scale) }
        var sum = 0.0, count = 0
        for y in 30..<120 {
            for x in 30..<120 {
                let value = 4 * green(x, y) - green(x - 1, y) - green(x + 1, y) - green(x, y - 1) - green(x, y + 1)
                sum += value * value
                count += 1
            }
        }
        return sum / Double(count)
    }
}
