internal import CFFmpeg
import FaceCore

/// Makes the BGRA pictures a detector needs straight from a decoded frame: a region of the
/// upright frame, scaled and converted by one libswscale call on that part of the stored planes
/// (colour matrix and range as the frame is tagged), then turned upright on the small picture.
/// No full-resolution BGRA copy of the frame is made.
///
/// Regions are snapped outwards to whole pixels, even chroma positions and sizes in steps of
/// `sizeStep`, so that crops of one face keep meeting the same swscale context from frame to
/// frame; `sample` returns the region it really took. A few contexts are kept, least recently
/// used first out. Formats whose planes cannot be offset (bitstream, paletted, hardware) are
/// converted whole and resampled instead. Used from one queue at a time (one sampler per lane).
package final class FrameSampler {
    private struct Key: Hashable {
        var sourceWidth, sourceHeight, format, targetWidth, targetHeight: Int32
        var space, range: Int32
    }

    /// Region sizes are rounded up to multiples of this many stored pixels.
    package let sizeStep: Int
    private var contexts: [(key: Key, context: OpaquePointer)] = []
    private let capacity = 8
    private let fallback = PixelConverter()
    private var stored: BGRAImage?
    private var whole: BGRAImage?
    private let targetPlanes = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 4)
    private let targetStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
    private let sourcePlanes = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 4)
    private let sourceStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 4)

    package init(sizeStep: Int = 16) {
        self.sizeStep = max(1, sizeStep)
        targetPlanes.initialize(repeating: nil, count: 4)
        targetStrides.initialize(repeating: 0, count: 4)
        sourcePlanes.initialize(repeating: nil, count: 4)
        sourceStrides.initialize(repeating: 0, count: 4)
    }

    deinit {
        for entry in contexts { sws_freeContext(entry.context) }
        targetPlanes.deallocate()
        targetStrides.deallocate()
        sourcePlanes.deallocate()
        sourceStrides.deallocate()
    }

    /// Fills `picture` with `region` (upright-frame pixels, inside the frame) of `frame`, which is
    /// stored turned by `orientation`; returns the upright region actually sampled.
    @discardableResult
    package func sample(_ frame: Frame, orientation: ImageOrientation, region: Rect, into picture: BGRAImage) throws -> Rect {
        let width = frame.width, height = frame.height
        guard let descriptor = av_pix_fmt_desc_get(frame.pixelFormat), width > 0, height > 0 else {
            throw FFmpegError(ft_averror(EINVAL), "sampling a frame of an unknown pixel format")
        }
        let flags = descriptor.pointee.flags
        let offsetable = flags & UInt64(AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_HWACCEL) == 0
        guard offsetable else { return try sampleWhole(frame, orientation: orientation, region: region, into: picture) }

        // The stored rectangle behind the upright region, snapped outwards.
        let chromaX = 1 << Int(descriptor.pointee.log2_chroma_w), chromaY = 1 << Int(descriptor.pointee.log2_chroma_h)
        let wanted = orientation.storedRect(of: region, width: width, height: height)
        // Sizes in steps (within the frame); a rectangle that would then stick out moves back in.
        let w = min(width, Self.roundUp(Int(wanted.maxX.rounded(.up)) - Int(wanted.x.rounded(.down)), to: sizeStep))
        let h = min(height, Self.roundUp(Int(wanted.maxY.rounded(.up)) - Int(wanted.y.rounded(.down)), to: sizeStep))
        let x0 = max(0, min(Int(wanted.x.rounded(.down)), width - w)) / chromaX * chromaX
        let y0 = max(0, min(Int(wanted.y.rounded(.down)), height - h)) / chromaY * chromaY
        guard w > 0, h > 0 else { throw FFmpegError(ft_averror(EINVAL), "sampling an empty region") }

        // swscale writes the stored orientation; a turned frame is sampled into a scratch picture first.
        let target: BGRAImage
        if orientation == .up {
            target = picture
        } else {
            let size = orientation.uprightSize(width: picture.width, height: picture.height)  // stored size of the picture
            if stored?.width != size.width || stored?.height != size.height { stored = BGRAImage(width: size.width, height: size.height) }
            target = stored!
        }
        let context = try self.context(frame, sourceWidth: w, sourceHeight: h, targetWidth: target.width,
                                        targetHeight: target.height)
        let pointer = frame.pointer
        let planeCount = Int(av_pix_fmt_count_planes(frame.pixelFormat))
        for plane in 0..<4 {
            guard plane < planeCount, let base = Self.plane(pointer, plane) else { sourcePlanes[plane] = nil; continue }
            let isChroma = (plane == 1 || plane == 2) && flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0
            let step = Self.step(descriptor, plane: plane)
            let px = isChroma ? x0 / chromaX : x0, py = isChroma ? y0 / chromaY : y0
            let stride = Self.stride(pointer, plane)
            sourcePlanes[plane] = UnsafePointer(base + py * Int(stride) + px * step)
            sourceStrides[plane] = stride
        }
        targetPlanes[0] = target.pixels
        targetStrides[0] = Int32(target.bytesPerRow)
        let rows = sws_scale(context, sourcePlanes, sourceStrides, 0, Int32(h), targetPlanes, targetStrides)
        if rows <= 0 { throw FFmpegError(ft_averror(EINVAL), "scaling a region of a frame") }
        if orientation != .up { BGRAImage.makeUpright(target, orientation: orientation, into: picture) }
        picture.contentsDidChange()
        return orientation.uprightRect(of: Rect(x: Double(x0), y: Double(y0), width: Double(w), height: Double(h)),
                                       width: width, height: height)
    }

    /// Formats swscale cannot read from an offset: the whole frame to BGRA, upright, then resampled.
    private func sampleWhole(_ frame: Frame, orientation: ImageOrientation, region: Rect, into picture: BGRAImage) throws
        -> Rect {
        let size = orientation.uprightSize(width: frame.width, height: frame.height)
        if stored?.width != frame.width || stored?.height != frame.height {
            stored = BGRAImage(width: frame.width, height: frame.height)
        }
        try fallback.convertToBGRA(frame, into: stored!)
        var upright = stored!
        if orientation != .up {
            if whole?.width != size.width || whole?.height != size.height { whole = BGRAImage(width: size.width, height: size.height) }
            BGRAImage.makeUpright(stored!, orientation: orientation, into: whole!)
            upright = whole!
        }
        upright.resample(region, into: picture)
        return region
    }

    /// The cached context for a conversion, made (and its colour details set) on first use.
    private func context(_ frame: Frame, sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int) throws
        -> OpaquePointer {
        let format = PixelConverter.plainFormat(frame.pixelFormat)
        let key = Key(sourceWidth: Int32(sourceWidth), sourceHeight: Int32(sourceHeight), format: format.rawValue,
                      targetWidth: Int32(targetWidth), targetHeight: Int32(targetHeight),
                      space: PixelConverter.swsColorspace(frame.pointer.pointee.colorspace, height: frame.height),
                      range: PixelConverter.isFullRange(frame.pointer) ? 1 : 0)
        if let index = contexts.firstIndex(where: { $0.key == key }) {
            let entry = contexts.remove(at: index)
            contexts.append(entry)
            return entry.context
        }
        guard let context = sws_getContext(key.sourceWidth, key.sourceHeight, format, key.targetWidth, key.targetHeight,
                                           AV_PIX_FMT_BGRA, SWS_BILINEAR, nil, nil, nil) else {
            throw FFmpegError(ft_averror(EINVAL), "preparing a \(sourceWidth)x\(sourceHeight) region conversion")
        }
        if av_pix_fmt_desc_get(format).pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 {
            sws_setColorspaceDetails(context, sws_getCoefficients(key.space), key.range,
                                     sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        if contexts.count >= capacity { sws_freeContext(contexts.removeFirst().context) }
        contexts.append((key, context))
        return context
    }

    private static func roundUp(_ value: Int, to step: Int) -> Int { (max(1, value) + step - 1) / step * step }

    /// Bytes from one pixel to the next in `plane` (the largest step of its components).
    private static func step(_ descriptor: UnsafePointer<AVPixFmtDescriptor>, plane: Int) -> Int {
        var components = descriptor.pointee.comp
        return withUnsafeBytes(of: &components) { raw in
            let list = raw.bindMemory(to: AVComponentDescriptor.self)
            return (0..<Int(descriptor.pointee.nb_components)).filter { Int(list[$0].plane) == plane }
                .map { Int(list[$0].step) }.max() ?? 1
        }
    }

    private static func plane(_ frame: UnsafeMutablePointer<AVFrame>, _ index: Int) -> UnsafeMutablePointer<UInt8>? {
        withUnsafeBytes(of: frame.pointee.data) { $0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)[index] }
    }

    private static func stride(_ frame: UnsafeMutablePointer<AVFrame>, _ index: Int) -> Int32 {
        withUnsafeBytes(of: frame.pointee.linesize) { $0.bindMemory(to: Int32.self)[index] }
    }
}

extension ImageOrientation {
    /// The stored-image rectangle that shows as `rect` of the upright image (`width` x `height`
    /// is the stored size).
    package func storedRect(of rect: Rect, width w: Int, height h: Int) -> Rect {
        let a = storedPoint(rect.x, rect.y, w, h), b = storedPoint(rect.maxX, rect.maxY, w, h)
        return Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The upright rectangle that a stored-image rectangle shows as (the inverse of `storedRect`).
    package func uprightRect(of rect: Rect, width w: Int, height h: Int) -> Rect {
        // Each orientation is its own inverse except the quarter turns, which swap.
        let inverse: ImageOrientation = self == .right ? .left : self == .left ? .right : self
        let size = uprightSize(width: w, height: h)
        return inverse.storedRect(of: rect, width: size.width, height: size.height)
    }

    /// The stored position (continuous, edges included) of upright point (x, y).
    private func storedPoint(_ x: Double, _ y: Double, _ w: Int, _ h: Int) -> Point {
        let w = Double(w), h = Double(h)
        switch self {
        case .up: return Point(x: x, y: y)
        case .upMirrored: return Point(x: w - x, y: y)
        case .down: return Point(x: w - x, y: h - y)
        case .downMirrored: return Point(x: x, y: h - y)
        case .leftMirrored: return Point(x: y, y: x)
        case .right: return Point(x: y, y: h - x)
        case .rightMirrored: return Point(x: w - y, y: h - x)
        case .left: return Point(x: w - y, y: x)
        }
    }
}
