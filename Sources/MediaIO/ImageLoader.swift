internal import CFFmpeg
import FaceCore

/// Decodes the first frame of any file FFmpeg reads (jpg, png, a video...) into an upright
/// BGRA image, applying EXIF orientation or the display matrix. PNG alpha is kept.
public enum ImageLoader {
    /// The upright image and the orientation that was applied.
    /// With `maxSide`, a larger picture is scaled down while it is converted (one swscale pass),
    /// so a huge file costs its decoded frame only, not a full-size BGRA copy. With `stillOnly`,
    /// a video (anything but a still-image format) is refused before it is decoded.
    public static func load(path: String, maxSide: Int? = nil,
                            stillOnly: Bool = false) throws -> (image: BGRAImage, orientation: ImageOrientation) {
        let demuxer = try Demuxer(path: path)
        // A GIF counts as a picture (an animated one gives its first frame).
        if stillOnly, !demuxer.isStillImage, String(cString: demuxer.context.pointee.iformat.pointee.name) != "gif" {
            throw MediaError.notStillImage(path)
        }
        let decoder = try VideoDecoder(demuxer: demuxer, threads: 1)
        let packet = Packet()
        let frame = Frame()
        var got = false
        do {
            while !got, try demuxer.readPacket(into: packet) {
                guard packet.streamIndex == demuxer.videoStreamIndex else { continue }
                try decoder.send(packet)
                got = try decoder.receive(into: frame)
            }
            if !got {
                try decoder.send(nil)
                got = try decoder.receive(into: frame)
            }
        } catch let error as FFmpegError {
            throw MediaError.failed(path, error)
        }
        guard got, frame.width > 0, frame.height > 0 else { throw MediaError.noFrames(path) }
        let orientation = demuxer.orientation(of: frame)
        var scaled = (width: frame.width, height: frame.height)
        if let maxSide, max(scaled.width, scaled.height) > maxSide {
            let scale = Double(maxSide) / Double(max(scaled.width, scaled.height))
            scaled = (max(1, Int((Double(scaled.width) * scale).rounded())), max(1, Int((Double(scaled.height) * scale).rounded())))
        }
        let stored = BGRAImage(width: scaled.width, height: scaled.height)
        do {
            try PixelConverter().convertToBGRA(frame, into: stored)
        } catch let error as FFmpegError {
            throw MediaError.failed(path, error)
        }
        guard orientation != .up else { return (stored, .up) }
        let size = orientation.uprightSize(width: stored.width, height: stored.height)
        let upright = BGRAImage(width: size.width, height: size.height)
        BGRAImage.makeUpright(stored, orientation: orientation, into: upright)
        return (upright, orientation)
    }
}
