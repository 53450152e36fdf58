internal import CFFmpeg

/// Copies the audio streams of an input into an output container packet for packet: the streams
/// are added to the muxer as they are, and each packet is written with its timestamps rescaled.
/// A damaged packet, one whose timestamp goes backwards, or one the container rejects is skipped
/// and counted. With an `origin` (a `--start` span's start), timestamps are shifted back by it so
/// that the audio starts at 0 with the video, as `ffmpeg -ss` makes it. Used from one queue.
final class AudioCopy {
    /// Input audio stream index → output stream index, input time base, and the origin in it.
    private let streams: [Int: (stream: Int, timeBase: AVRational, origin: Int64)]
    private var lastDTS: [Int: Int64] = [:]
    /// Packets skipped because they were damaged.
    private(set) var damagedPackets = 0

    /// Adds a copy of each of `demuxer`'s audio streams to `muxer` (before its header is written);
    /// packet timestamps are moved back by `origin` seconds (0 keeps them).
    init(from demuxer: Demuxer, into muxer: Muxer, origin: Double = 0) throws {
        var streams: [Int: (Int, AVRational, Int64)] = [:]
        for index in demuxer.audioStreamIndexes {
            let timeBase = demuxer.stream(index).pointee.time_base
            streams[index] = (try muxer.addCopiedStream(from: demuxer.stream(index)), timeBase, Self.ticks(origin, in: timeBase))
        }
        self.streams = streams
    }

    /// `seconds` in `timeBase`, rounded (0 stays exactly 0).
    static func ticks(_ seconds: Double, in timeBase: AVRational) -> Int64 {
        seconds == 0 ? 0 : Int64((seconds / av_q2d(timeBase)).rounded())
    }

    /// True when the packet belongs to a copied stream.
    func copies(_ packet: Packet) -> Bool { streams[packet.streamIndex] != nil }

    /// Writes `packet` into `muxer`, or skips and counts it (see the type).
    func copy(_ packet: Packet, into muxer: Muxer) throws {
        guard let target = streams[packet.streamIndex] else { return }
        if target.origin != 0 {
            if packet.pointer.pointee.pts != ft_nopts_value() { packet.pointer.pointee.pts -= target.origin }
            if packet.pointer.pointee.dts != ft_nopts_value() { packet.pointer.pointee.dts -= target.origin }
        }
        let dts = packet.pointer.pointee.dts
        if dts != ft_nopts_value() {
            if let last = lastDTS[packet.streamIndex], dts <= last {
                damagedPackets += 1
                return
            }
            lastDTS[packet.streamIndex] = dts
        }
        do {
            try muxer.write(packet, timeBase: target.timeBase, streamIndex: target.stream)
        } catch MediaError.failed where !muxer.outputFailed {
            // The container's own checks (an ADTS header, say) rejected the packet; the file is fine.
            damagedPackets += 1
        }
    }
}
