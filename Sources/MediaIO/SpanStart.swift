internal import CFFmpeg

/// Where decoding starts for a span (`TimeSpan`): the packets already read that go to the decoder
/// first (from the keyframe on), and the number the first decoded frame has in the whole video.
struct SpanStart {
    var packets: [Packet]
    var firstNumber: Int
}

extension Demuxer {
    /// Moves to the last keyframe whose frame is presented at or before `target` (the video
    /// stream's time base), so that decoding from there reaches the span's first frame, and says
    /// which frame of the whole video that keyframe is.
    ///
    /// A container whose index lists every frame (mp4, mov, avi) is seeked straight to the
    /// keyframe, its number counted in the index. Otherwise (mkv's cues list keyframes only; mpeg-ts
    /// has no index) the packets before the span are read, not decoded, and counted: exact for any
    /// container, at the cost of reading the bytes before the span. `nil` when a seek landed
    /// somewhere else than asked: the caller reopens the file and calls `scanToKeyframe`.
    func seekToKeyframe(before target: Int64) throws -> SpanStart? {
        let stream = videoStream
        let count = Int(avformat_index_get_entries_count(stream))
        guard count > 1, stream.pointee.nb_frames == Int64(count) else { return try scanToKeyframe(before: target) }
        // The index gives decoding timestamps, a keyframe's presentation is that or later: the
        // keyframes decoded at or before the target, each with its number in the whole video.
        var keyframes: [(entry: Int32, number: Int)] = []
        var number = 0
        for i in 0..<Int32(count) {
            guard let entry = avformat_index_get_entry(stream, i) else { return try scanToKeyframe(before: target) }
            if entry.pointee.timestamp > target { break }
            let flags = Int32(entry.pointee.flags)
            guard flags & AVINDEX_DISCARD_FRAME == 0 else { continue }
            if flags & AVINDEX_KEYFRAME != 0 { keyframes.append((i, number)) }
            number += 1
        }
        // The latest one presented at or before the target: its packet's timestamp says.
        for keyframe in keyframes.reversed() where keyframe.number > 0 {
            guard let entry = avformat_index_get_entry(stream, keyframe.entry) else { return nil }
            let timestamp = entry.pointee.timestamp, position = entry.pointee.pos
            guard avformat_seek_file(context, Int32(videoStreamIndex), timestamp, timestamp, timestamp, 0) >= 0 else { return nil }
            var packets: [Packet] = []
            let packet = Packet()
            var first: Packet?
            while first == nil, try readPacket(into: packet) {
                let copy = Packet()
                av_packet_move_ref(copy.pointer, packet.pointer)
                packets.append(copy)
                if copy.streamIndex == videoStreamIndex { first = copy }
            }
            guard let first, first.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0,
                  first.pointer.pointee.pos == position || first.pointer.pointee.dts == timestamp else { return nil }
            let pts = first.pointer.pointee.pts
            if pts == ft_nopts_value() || pts <= target { return SpanStart(packets: packets, firstNumber: keyframe.number) }
        }
        // The span starts in the first group of pictures: read from the beginning (after a seek,
        // the caller reopens the file).
        return keyframes.contains { $0.number > 0 } ? nil : SpanStart(packets: [], firstNumber: 0)
    }

    /// Reads packets from the current position (the start of the file) without decoding them,
    /// counting the video frames, and keeps those from the last keyframe presented at or before
    /// `target`: when a later keyframe shows up, the packets kept are where decoding starts.
    /// Memory holds one group of pictures of packets.
    func scanToKeyframe(before target: Int64) throws -> SpanStart {
        var kept: [Packet] = []
        var keyNumber = 0, number = 0
        let packet = Packet()
        while try readPacket(into: packet) {
            let copy = Packet()
            av_packet_move_ref(copy.pointer, packet.pointer)
            let p = copy.pointer.pointee
            guard copy.streamIndex == videoStreamIndex else {
                if !kept.isEmpty { kept.append(copy) }
                continue
            }
            let time = p.pts != ft_nopts_value() ? p.pts : p.dts
            if p.flags & AV_PKT_FLAG_KEY != 0 {
                if time != ft_nopts_value() && time > target && (number > 0 || !kept.isEmpty) {
                    kept.append(copy)
                    return SpanStart(packets: kept, firstNumber: kept.count == 1 ? number : keyNumber)
                }
                kept = [copy]
                keyNumber = number
            } else if !kept.isEmpty {
                kept.append(copy)
            }
            if p.flags & AV_PKT_FLAG_DISCARD == 0 { number += 1 }
        }
        return SpanStart(packets: kept, firstNumber: keyNumber)
    }
}
