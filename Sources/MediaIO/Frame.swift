internal import CFFmpeg
import FaceCore

/// Owns one `AVFrame` and frees it in `deinit`. Used from one queue at a time.
package final class Frame: @unchecked Sendable {
    /// The frame; never nil after init.
    let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame (no picture buffers).
    package init() {
        guard let frame = av_frame_alloc() else { OutOfMemory.fail("a frame (FFmpeg's av_frame_alloc)") }
        pointer = frame
    }

    /// Allocates a frame with picture buffers of the given size and pixel format.
    convenience init(width: Int, height: Int, format: AVPixelFormat) throws {
        self.init()
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = format.rawValue
        try check(av_frame_get_buffer(pointer, 0), "allocating a \(width)x\(height) frame")
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Width in pixels.
    package var width: Int { Int(pointer.pointee.width) }
    /// Height in pixels.
    package var height: Int { Int(pointer.pointee.height) }
    /// Pixel format.
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }
    /// Bytes of the picture's planes (unpadded): what a frame held in flight costs at least.
    package var pictureBytes: Int {
        max(0, Int(av_image_get_buffer_size(pixelFormat, pointer.pointee.width, pointer.pointee.height, 1)))
    }

    /// Makes the picture buffers writable, copying them if someone else (an encoder) still holds them.
    package func makeWritable() throws {
        try check(av_frame_make_writable(pointer), "making a frame writable")
    }

    /// The display matrix side data attached to this frame, if any (still images carry EXIF orientation here).
    var displayMatrix: [Int32]? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_DISPLAYMATRIX),
              side.pointee.size >= 36 else { return nil }
        return side.pointee.data.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
    }
}
