internal import CFFmpeg
import FaceCore

/// Owns one `AVPacket` and frees it in `deinit`. Used from one queue at a time.
package final class Packet: @unchecked Sendable {
    /// The packet; never nil after init.
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Allocates an empty packet.
    package init() {
        guard let packet = av_packet_alloc() else { OutOfMemory.fail("a packet (FFmpeg's av_packet_alloc)") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// Index of the stream the packet belongs to.
    package var streamIndex: Int { Int(pointer.pointee.stream_index) }
}
