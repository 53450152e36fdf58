import FaceCore

/// An 8-bit single-channel image, rows top to bottom with no padding.
package struct GrayImage: Sendable, Equatable {
    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// `width * height` bytes, row after row.
    package var pixels: [UInt8]

    /// Wraps existing pixels; `nil` when the count does not match the size.
    package init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A uniform image.
    package init(width: Int, height: Int, value: UInt8 = 0) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt8](repeating: value, count: self.width * self.height)
    }

    /// Converts a BGRA frame to grey exactly as OpenCV's `cvtColor(..., COLOR_BGR2GRAY)` does for
    /// 8-bit data: fixed-point weights 3735 (B), 19235 (G), 9798 (R) with a 15-bit shift and
    /// rounding (0.114, 0.587, 0.299 scaled by 32768). Alpha is ignored.
    package init(bgra image: BGRAImage) {
        let width = image.width, height = image.height
        var out = [UInt8](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let src = image.row(y)
                let row = y * width
                for x in 0..<width {
                    let p = src + x * 4
                    let sum = UInt32(p[0]) &* 3735 &+ UInt32(p[1]) &* 19235 &+ UInt32(p[2]) &* 9798 &+ 16384
                    dst[row + x] = UInt8(truncatingIfNeeded: sum >> 15)
                }
            }
        }
        self.width = width
        self.height = height
        pixels = out
    }

    /// True when the image has no pixels.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// The pixel at (x, y).
    package subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// The part of the image inside the rectangle, clipped to the image (possibly empty).
    package func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> GrayImage {
        let left = max(0, x), top = max(0, y)
        let right = min(width, x + cropWidth), bottom = min(height, y + cropHeight)
        guard right > left, bottom > top else { return GrayImage(width: 0, height: 0) }
        var out = [UInt8](repeating: 0, count: (right - left) * (bottom - top))
        var i = 0
        for row in top..<bottom {
            let start = row * width + left
            for x in start..<(start + right - left) {
                out[i] = pixels[x]
                i += 1
            }
        }
        return GrayImage(width: right - left, height: bottom - top, pixels: out) ?? GrayImage(width: 0, height: 0)
    }

    /// The image resized with OpenCV's bit-exact bilinear interpolation (`INTER_LINEAR_EXACT`);
    /// an empty image when either size is below 1 or the image is empty.
    package func resized(width newWidth: Int, height newHeight: Int) -> GrayImage {
        guard newWidth > 0, newHeight > 0, !isEmpty else { return GrayImage(width: 0, height: 0) }
        var columns = BitExactResizer.Taps(), rows = BitExactResizer.Taps()
        columns.compute(source: width, destination: newWidth)
        rows.compute(source: height, destination: newHeight)
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        var scratch = [UInt32](repeating: 0, count: 2 * newWidth)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                scratch.withUnsafeMutableBufferPointer { rowsBuffer in
                    guard let s = src.baseAddress, let d = dst.baseAddress, let r = rowsBuffer.baseAddress else { return }
                    BitExactResizer.resize(source: s, sourceWidth: width, destination: d, columns: columns, rows: rows,
                                           rowA: r, rowB: r + newWidth)
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out) ?? GrayImage(width: 0, height: 0)
    }
}
