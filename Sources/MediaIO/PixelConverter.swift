internal import CFFmpeg
import FaceCore

/// Converts frames between the codec's pixel format and BGRA with libswscale, honouring the
/// source's colour matrix (BT.601 / BT.709) and range (limited / full).
///
/// Owns its `SwsContext`s and frees them in `deinit`. Used from one queue at a time: the pipeline
/// gives each worker its own converter.
package final class PixelConverter {
    private var toBGRAContext: OpaquePointer?
    private var fromBGRAContext: OpaquePointer?
    private var toBGRAColours: ColourSetup?
    private var sampleContext: OpaquePointer?
    private var frameContext: OpaquePointer?
    private var frameColours: ColourSetup?
    private var fromBGRAColours: ColourSetup?

    /// What a context's colour details were last set for: sizes, formats, matrix and range.
    private struct ColourSetup: Equatable {
        var sourceWidth, sourceHeight, sourceFormat: Int32
        var targetWidth, targetHeight, targetFormat: Int32
        var space, range: Int32
    }
    // The BGRA side's plane pointers and strides, kept so a conversion allocates nothing.
    private let bgraPlanes = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 4)
    private let bgraStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 4)

    /// Creates a converter; contexts are made on first use and re-made when sizes or formats change.
    package init() {
        bgraPlanes.initialize(repeating: nil, count: 4)
        bgraStrides.initialize(repeating: 0, count: 4)
    }

    deinit {
        sws_freeContext(toBGRAContext)
        sws_freeContext(fromBGRAContext)
        sws_freeContext(sampleContext)
        sws_freeContext(frameContext)
        bgraPlanes.deallocate()
        bgraStrides.deallocate()
    }

    private func pointBGRAPlanes(at image: BGRAImage) {
        bgraPlanes[0] = image.pixels
        bgraStrides[0] = Int32(image.bytesPerRow)
    }

    /// The libswscale colour-matrix constant for a frame: its tagged matrix, else BT.709 for HD
    /// sizes and BT.601 below (what players assume for untagged video).
    static func swsColorspace(_ space: AVColorSpace, height: Int) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: return SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M
        case AVCOL_SPC_FCC: return SWS_CS_FCC
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        default: return height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }

    /// True when the frame uses full-range (0-255) luma: tagged so, or a `yuvj` format.
    static func isFullRange(_ frame: UnsafePointer<AVFrame>) -> Bool {
        if frame.pointee.color_range == AVCOL_RANGE_JPEG { return true }
        switch AVPixelFormat(rawValue: frame.pointee.format) {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P: return true
        default: return false
        }
    }

    /// YUV pixel formats that the `yuvj` aliases stand for (swscale wants the plain ones plus a range flag).
    static func plainFormat(_ format: AVPixelFormat) -> AVPixelFormat {
        switch format {
        case AV_PIX_FMT_YUVJ420P: return AV_PIX_FMT_YUV420P
        case AV_PIX_FMT_YUVJ422P: return AV_PIX_FMT_YUV422P
        case AV_PIX_FMT_YUVJ444P: return AV_PIX_FMT_YUV444P
        case AV_PIX_FMT_YUVJ440P: return AV_PIX_FMT_YUV440P
        default: return format
        }
    }

    private static func isRGB(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }

    /// The cached context for one direction (`toBGRA` or `fromBGRA`), re-made by libswscale when
    /// sizes or formats change. The colour matrix and range are set only when the context or the
    /// frame's tags change, since `sws_setColorspaceDetails` rebuilds its tables.
    private func prepare(_ cached: inout OpaquePointer?, _ colours: inout ColourSetup?,
                         from source: (Int, Int, AVPixelFormat), to target: (Int, Int, AVPixelFormat),
                         yuv: UnsafePointer<AVFrame>, yuvIsSource: Bool) throws -> OpaquePointer {
        cached = sws_getCachedContext(cached, Int32(source.0), Int32(source.1), source.2,
                                      Int32(target.0), Int32(target.1), target.2, SWS_BILINEAR, nil, nil, nil)
        guard let context = cached else {
            throw FFmpegError(ft_averror(EINVAL), "preparing a \(source.0)x\(source.1) colour conversion")
        }
        let yuvFormat = yuvIsSource ? source.2 : target.2
        guard !PixelConverter.isRGB(yuvFormat) else { return context }
        let space = PixelConverter.swsColorspace(yuv.pointee.colorspace, height: Int(yuv.pointee.height))
        let range: Int32 = PixelConverter.isFullRange(yuv) ? 1 : 0
        let setup = ColourSetup(sourceWidth: Int32(source.0), sourceHeight: Int32(source.1), sourceFormat: source.2.rawValue,
                                targetWidth: Int32(target.0), targetHeight: Int32(target.1), targetFormat: target.2.rawValue,
                                space: space, range: range)
        if colours == setup { return context }
        if yuvIsSource {
            sws_setColorspaceDetails(context, sws_getCoefficients(space), range,
                                     sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        } else {
            sws_setColorspaceDetails(context, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                     sws_getCoefficients(space), range, 0, 1 << 16, 1 << 16)
        }
        colours = setup
        return context
    }

    /// Converts a decoded frame into `image` (same size as the frame).
    package func convertToBGRA(_ frame: Frame, into image: BGRAImage) throws {
        let source = frame.pointer
        let context = try prepare(&toBGRAContext, &toBGRAColours,
                                  from: (frame.width, frame.height, PixelConverter.plainFormat(frame.pixelFormat)),
                                  to: (image.width, image.height, AV_PIX_FMT_BGRA), yuv: source, yuvIsSource: true)
        pointBGRAPlanes(at: image)
        try withPlanes(source) { planes, strides in
            let rows = sws_scale(context, planes, strides, 0, Int32(frame.height), bgraPlanes, bgraStrides)
            if rows <= 0 { throw FFmpegError(ft_averror(EINVAL), "converting a frame to BGRA") }
        }
        image.contentsDidChange()
    }

    /// Converts `image` into `frame` (allocated by the caller in the encoder's size and format),
    /// with the colour matrix and range tagged on `frame` (`colorspace`, `color_range`).
    package func convertFromBGRA(_ image: BGRAImage, into frame: Frame) throws {
        let target = frame.pointer
        let context = try prepare(&fromBGRAContext, &fromBGRAColours, from: (image.width, image.height, AV_PIX_FMT_BGRA),
                                  to: (frame.width, frame.height, PixelConverter.plainFormat(frame.pixelFormat)),
                                  yuv: target, yuvIsSource: false)
        pointBGRAPlanes(at: image)
        let source = UnsafeRawPointer(bgraPlanes).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let rows = withWritablePlanes(target) { planes, strides in
            sws_scale(context, source, bgraStrides, 0, Int32(image.height), planes, strides)
        }
        if rows <= 0 { throw FFmpegError(ft_averror(EINVAL), "converting a frame from BGRA") }
    }

    /// Converts a decoded frame straight into `target` (the encoder's size and format) with no
    /// BGRA in between, keeping the source's colour matrix and range.
    package func convert(_ frame: Frame, into target: Frame) throws {
        let source = frame.pointer, output = target.pointer
        let sourceFormat = PixelConverter.plainFormat(frame.pixelFormat), targetFormat = PixelConverter.plainFormat(target.pixelFormat)
        frameContext = sws_getCachedContext(frameContext, Int32(frame.width), Int32(frame.height), sourceFormat,
                                            Int32(target.width), Int32(target.height), targetFormat, SWS_BILINEAR, nil, nil, nil)
        guard let context = frameContext else {
            throw FFmpegError(ft_averror(EINVAL), "preparing a \(frame.width)x\(frame.height) frame conversion")
        }
        let space = PixelConverter.swsColorspace(source.pointee.colorspace, height: frame.height)
        let setup = ColourSetup(sourceWidth: Int32(frame.width), sourceHeight: Int32(frame.height), sourceFormat: sourceFormat.rawValue,
                                targetWidth: Int32(target.width), targetHeight: Int32(target.height), targetFormat: targetFormat.rawValue,
                                space: space, range: PixelConverter.isFullRange(source) ? 1 : 0)
        if frameColours != setup {
            let targetRange: Int32 = PixelConverter.isFullRange(output) ? 1 : 0
            sws_setColorspaceDetails(context, sws_getCoefficients(space), setup.range, sws_getCoefficients(space), targetRange,
                                     0, 1 << 16, 1 << 16)
            frameColours = setup
        }
        try withPlanes(source) { planes, strides in
            let rows = withWritablePlanes(output) { targetPlanes, targetStrides in
                sws_scale(context, planes, strides, 0, Int32(frame.height), targetPlanes, targetStrides)
            }
            if rows <= 0 { throw FFmpegError(ft_averror(EINVAL), "converting a frame to the encoder's format") }
        }
    }

    /// A coarse colour sample of a frame for shot-boundary tests: `columns` x `rows` points of
    /// red, green, blue (3 bytes each, row by row) into `sample`, each the average of its block of
    /// the picture (area scaling: a point sample would flicker with every moving edge).
    package func colourSample(_ frame: Frame, columns: Int, rows: Int, into sample: inout [UInt8]) throws {
        sampleContext = sws_getCachedContext(sampleContext, Int32(frame.width), Int32(frame.height),
                                             PixelConverter.plainFormat(frame.pixelFormat), Int32(columns), Int32(rows),
                                             AV_PIX_FMT_RGB24, SWS_AREA, nil, nil, nil)
        guard let context = sampleContext else {
            throw FFmpegError(ft_averror(EINVAL), "preparing a \(frame.width)x\(frame.height) colour sample")
        }
        if sample.count != columns * rows * 3 { sample = [UInt8](repeating: 0, count: columns * rows * 3) }
        try withPlanes(frame.pointer) { planes, strides in
            var stride = Int32(columns * 3)
            let rowsDone = sample.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var plane: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
                return sws_scale(context, planes, strides, 0, Int32(frame.height), &plane, &stride)
            }
            if rowsDone <= 0 { throw FFmpegError(ft_averror(EINVAL), "sampling a frame's colours") }
        }
    }

    private func withWritablePlanes(_ frame: UnsafeMutablePointer<AVFrame>,
                                    _ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, UnsafePointer<Int32>) -> Int32) -> Int32 {
        withUnsafeMutablePointer(to: &frame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { strides in body(planes, strides) }
                }
            }
        }
    }

    private func withPlanes(_ frame: UnsafeMutablePointer<AVFrame>,
                            _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) throws -> Void) rethrows {
        try withUnsafeMutablePointer(to: &frame.pointee.data) { data in
            try data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                try withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
                    try lines.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        try body(planes, strides)
                    }
                }
            }
        }
    }
}

extension Frame {
    /// The libswscale colour-matrix constant this frame is read with (`SWS_CS_…`: its tag, or
    /// BT.709 from 720 lines and BT.601 below when untagged).
    var swsColorspace: Int32 { PixelConverter.swsColorspace(pointer.pointee.colorspace, height: height) }
    /// Whether the frame's samples use the full range (tagged so, or a `yuvj` format).
    var isFullRange: Bool { PixelConverter.isFullRange(pointer) }
}
