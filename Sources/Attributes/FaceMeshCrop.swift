import FaceCore
import Foundation

/// The square, rotated region of the frame the face-mesh model sees, as MediaPipe cuts it: centred
/// on the detector's box, side `scale` times the box's longer side, turned by the eye line's angle
/// so the eyes are level in the crop. Maps between crop coordinates (0...`size` on each axis, the
/// model's landmark units) and frame pixels, and samples the crop into the model's input.
/// The iris model's eye crops are the same kind of region (`init(eyeFrom:to:)`), optionally mirrored.
package struct FaceMeshCrop: Sendable, Equatable {
    /// Crop centre in frame pixels.
    package let center: Point
    /// Crop side in frame pixels.
    package let side: Double
    /// Rotation in radians: the crop's x axis points along (cos, sin) in the frame (y down), so a
    /// positive angle is clockwise on screen, like `FaceObservation.roll`.
    package let angle: Double
    /// Model input side in pixels.
    package let size: Int
    /// True when the crop is flipped left to right (crop x runs against the rotated x axis), as the
    /// iris model wants for the eye on the image's right.
    package let mirrored: Bool

    /// A crop with explicit geometry.
    package init(center: Point, side: Double, angle: Double, size: Int = 192, mirrored: Bool = false) {
        self.center = center
        self.side = side
        self.angle = angle
        self.size = size
        self.mirrored = mirrored
    }

    /// MediaPipe's iris-model crop of one eye: centred between the eye corners `from` (the one on
    /// the image's left) and `to`, turned along the line between them, side `scale` times their
    /// distance; `mirrored` flips it so the image-right eye looks like an image-left one.
    package init(eyeFrom from: Point, to: Point, scale: Double = 2.3, size: Int = 64, mirrored: Bool = false) {
        self.init(center: Point(x: (from.x + to.x) / 2, y: (from.y + to.y) / 2), side: scale * from.distance(to: to),
                  angle: atan2(to.y - from.y, to.x - from.x), size: size, mirrored: mirrored)
    }

    /// MediaPipe's crop for a detected face: rotation from the eye line when both eyes are known
    /// (none otherwise), side `scale` times the box's longer side.
    package init(face: FaceObservation, scale: Double = 1.5, size: Int = 192) {
        var angle = 0.0
        if let left = face.leftEye, let right = face.rightEye, left.isFinite, right.isFinite, left != right {
            angle = atan2(right.y - left.y, right.x - left.x)
        }
        self.init(center: face.bounds.center, side: scale * max(face.bounds.width, face.bounds.height),
                  angle: angle, size: size)
    }

    /// The frame point of crop point (`x`, `y`) in crop pixels (0...size).
    package func framePoint(x: Double, y: Double) -> Point {
        let u = (x / Double(size) - 0.5) * (mirrored ? -side : side), v = (y / Double(size) - 0.5) * side
        let c = cos(angle), s = sin(angle)
        return Point(x: center.x + u * c - v * s, y: center.y + u * s + v * c)
    }

    /// The crop point (crop pixels) of a frame point; inverse of `framePoint`.
    package func cropPoint(_ point: Point) -> Point {
        let dx = point.x - center.x, dy = point.y - center.y
        let c = cos(angle), s = sin(angle)
        let u = dx * c + dy * s, v = -dx * s + dy * c
        return Point(x: (u / (mirrored ? -side : side) + 0.5) * Double(size), y: (v / side + 0.5) * Double(size))
    }

    /// Writes the crop of `image` as `size * size * 3` RGB floats in [0, 1] (what the face-mesh
    /// model expects), bilinear; parts outside the frame are black. Large crops sample a
    /// block-averaged copy of the frame so the bilinear step does not alias.
    package func sample(_ image: BGRAImage, into input: UnsafeMutableBufferPointer<Float>) {
        guard let base = input.baseAddress, input.count >= size * size * 3 else { return }
        guard side.isFinite, side > 0, center.isFinite, angle.isFinite else {
            input.update(repeating: 0)
            return
        }
        let factor = max(1, Int(min(side / Double(2 * size), Double(min(image.width, image.height)))))
        let source = image.downscaled(by: factor)
        let width = source.width, height = source.height
        // One crop pixel step along the crop's x and y axes, in source pixels (from the mapping, so
        // mirrored crops need no special case).
        let origin = framePoint(x: 0.5, y: 0.5)
        let alongX = framePoint(x: 1.5, y: 0.5), alongY = framePoint(x: 0.5, y: 1.5)
        let f = Double(factor)
        let columnX = (alongX.x - origin.x) / f, columnY = (alongX.y - origin.y) / f
        let rowX = (alongY.x - origin.x) / f, rowY = (alongY.y - origin.y) / f
        // Pixel centres sit at +0.5: shift to index space once.
        let x0 = origin.x / f - 0.5, y0 = origin.y / f - 0.5
        let scale: Float = 1 / 255
        let pixels = source.pixels, stride = source.bytesPerRow
        let stepX = Float(columnX), stepY = Float(columnY)
        let limitX = Float(width), limitY = Float(height)
        for row in 0..<size {
            // Float positions: 192 increments of about one pixel stay far inside Float's precision.
            var sx = Float(x0 + Double(row) * rowX), sy = Float(y0 + Double(row) * rowY)
            let out = base + row * size * 3
            for column in 0..<size {
                var r: Float = 0, g: Float = 0, b: Float = 0
                // Checked in Float first, so absurd (or NaN) positions never reach Int().
                if sx > -1, sy > -1, sx < limitX, sy < limitY {
                    // floor by truncation (exact above -1): rounded(.down) calls libm's floorf
                    // on the x86-64 baseline, which has no roundss.
                    let tx = Float(Int(sx)), ty = Float(Int(sy))
                    let fx0 = tx > sx ? tx - 1 : tx, fy0 = ty > sy ? ty - 1 : ty
                    let fx = sx - fx0, fy = sy - fy0
                    let ix = Int(fx0), iy = Int(fy0)
                    if ix >= 0, iy >= 0, ix + 1 < width, iy + 1 < height {
                        let p00 = pixels + iy * stride + ix * 4, p10 = p00 + stride
                        let w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy
                        b = Float(p00[0]) * w00 + Float(p00[4]) * w01 + Float(p10[0]) * w10 + Float(p10[4]) * w11
                        g = Float(p00[1]) * w00 + Float(p00[5]) * w01 + Float(p10[1]) * w10 + Float(p10[5]) * w11
                        r = Float(p00[2]) * w00 + Float(p00[6]) * w01 + Float(p10[2]) * w10 + Float(p10[6]) * w11
                    } else {
                        // At the frame's edge: taps outside it count as black (padding).
                        for tap in 0..<4 {
                            let x = ix + (tap & 1), y = iy + (tap >> 1)
                            guard x >= 0, x < width, y >= 0, y < height else { continue }
                            let w = (tap & 1 == 0 ? 1 - fx : fx) * (tap >> 1 == 0 ? 1 - fy : fy)
                            let p = pixels + y * stride + x * 4
                            b += Float(p[0]) * w
                            g += Float(p[1]) * w
                            r += Float(p[2]) * w
                        }
                    }
                }
                let pixel = out + column * 3
                pixel[0] = r * scale
                pixel[1] = g * scale
                pixel[2] = b * scale
                sx += stepX
                sy += stepY
            }
        }
    }
}
