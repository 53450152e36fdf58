internal import CFFmpeg
import FaceCore

extension Frame {
    /// A view of this frame's planes for drawing in YUV, or `nil` when the format is not planar
    /// YUV with three planes that `YUVImage` describes (NV12, packed and RGB formats, 4:1:1, 4:4:0,
    /// big-endian samples): those are drawn on the BGRA path. Matrix and range are the frame's
    /// tags, read as `PixelConverter` reads them (untagged: BT.709 from 720 lines, else BT.601).
    package var yuvImage: YUVImage? {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat) else { return nil }
        let d = descriptor.pointee
        let unsupported = UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL
                                 | AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_ALPHA)
        guard d.flags & unsupported == 0, d.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0, d.nb_components == 3,
              d.comp.0.plane == 0, d.comp.1.plane == 1, d.comp.2.plane == 2 else { return nil }
        let subsampling: ChromaSubsampling
        switch (d.log2_chroma_w, d.log2_chroma_h) {
        case (1, 1): subsampling = .yuv420
        case (1, 0): subsampling = .yuv422
        case (0, 0): subsampling = .yuv444
        default: return nil
        }
        let frame = pointer.pointee
        let matrix: YUVColorMatrix
        switch swsColorspace {
        case SWS_CS_ITU709: matrix = .bt709
        case SWS_CS_SMPTE240M: matrix = .smpte240m
        case SWS_CS_FCC: matrix = .fcc
        case SWS_CS_BT2020: matrix = .bt2020
        default: matrix = .bt601
        }
        let encoding = YUVEncoding(matrix: matrix, range: isFullRange ? .full : .limited, bitDepth: Int(d.comp.0.depth))
        guard let y = frame.data.0, let cb = frame.data.1, let cr = frame.data.2 else { return nil }
        return YUVImage(width: width, height: height, subsampling: subsampling, encoding: encoding,
                        luma: UnsafeMutableRawPointer(y), lumaStride: Int(frame.linesize.0),
                        cb: UnsafeMutableRawPointer(cb), cbStride: Int(frame.linesize.1),
                        cr: UnsafeMutableRawPointer(cr), crStride: Int(frame.linesize.2))
    }
}
