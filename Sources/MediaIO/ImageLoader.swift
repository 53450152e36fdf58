internal import CFFmpeg
import FaceCore

/// Decodes the first frame of any file FFmpeg reads (jpg, png, a video...) into an upright
/// BGRA image, applying EXIF orientation or the display matrix. PNG alpha is kept.
public enum ImageLoader {
    /// The upright image and the orientation that was applied.
    public static func load(path: String) throws -> (image: BGRAImage, orientation: ImageOrientation) {
        let demuxer = try Demuxer(path: path)
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
        let orientation = demuxer.streamOrientation
            ?? frame.displayMatrix.map { matrix in matrix.withUnsafeBufferPointer { Demuxer.orientation(displayMatrix: $0.baseAddress!) } }
            ?? .up
        let stored = BGRAImage(width: frame.width, height: frame.height)
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
