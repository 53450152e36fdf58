internal import CFFmpeg

/// Copies the audio streams of an input into an output container packet for packet: the streams
/// are added to the muxer as they are, and each packet is written with its timestamps rescaled.
/// A damaged packet, one whose timestamp goes backwards, or one the container rejects is skipped
/// and counted. Used from one queue.
final class AudioCopy {
    /// Input audio stream index → output stream index and input time base.
    private let streams: [Int: (stream: Int, timeBase: AVRational)]
    private var lastDTS: [Int: Int64] = [:]
    /// Packets skipped because they were damaged.
    private(set) var damagedPackets = 0

    /// Adds a copy of each of `demuxer`'s audio streams to `muxer` (before its header is written).
    init(from demuxer: Demuxer, into muxer: Muxer) throws {
        var streams: [Int: (Int, AVRational)] = [:]
        for index in demuxer.audioStreamIndexes {
            streams[index] = (try muxer.addCopiedStream(from: demuxer.stream(index)), demuxer.stream(index).pointee.time_base)
        }
        self.streams = streams
    }

    /// True when the packet belongs to a copied stream.
    func copies(_ packet: Packet) -> Bool { streams[packet.streamIndex] != nil }

    /// Writes `packet` into `muxer`, or skips and counts it (see the type).
    func copy(_ packet: Packet, into muxer: Muxer) throws {
        guard let target = streams[packet.streamIndex] else { return }
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
