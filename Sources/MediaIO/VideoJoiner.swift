internal import CFFmpeg
import FaceCore

/// Joins video parts encoded apart (the segments of a split plan) into one file by stream copy,
/// and copies the audio of the original once: no picture is decoded or encoded again.
///
/// Each part must hold the same encoding (codec, size, pixel format, codec headers), start with a
/// key frame and close its groups of pictures (`VideoWriter`'s `closedGOPs`). Its timestamps are
/// moved so that its first frame falls where the plan says (`Part.firstPTS`, the original's clock),
/// whatever the part's container did with its start; decoding timestamps are kept increasing
/// across the joins. The audio packets are interleaved with the video by time. The output is
/// written under a temporary name and renamed when complete (`AtomicOutput`).
package enum VideoJoiner {
    /// One part, in order.
    package struct Part: Sendable, Equatable {
        /// The part's file.
        package var path: String
        /// Where its first frame belongs, in the original's time base.
        package var firstPTS: Int64
        /// The frames it must hold.
        package var frames: Int

        /// Creates a part.
        package init(path: String, firstPTS: Int64, frames: Int) {
            self.path = path
            self.firstPTS = firstPTS
            self.frames = frames
        }
    }

    /// What a join wrote.
    package struct Result: Sendable, Equatable {
        /// Video packets (frames) written.
        package var frames = 0
        /// Audio packets written.
        package var audioPackets = 0
        /// Audio packets skipped as damaged.
        package var damagedAudioPackets = 0
    }

    /// Joins `parts` (in order) into `path`, refused when it names one of `inputs`; the video is
    /// timed in `timeBase` (the original's), and the audio streams of `audioFrom` (the original)
    /// are copied, when given. One-line errors name the part that does not fit.
    package static func join(_ parts: [Part], timeBase: TimeBase, audioFrom original: String?, to path: String,
                              inputs: [String]) throws -> Result {
        guard let first = parts.first else { throw MediaError.noFrames(path) }
        let reference = try Demuxer(path: first.path)
        let muxer = try Muxer(output: try AtomicOutput(path: path, inputs: inputs))
        let video = try muxer.addCopiedStream(from: reference.videoStream, displayMatrix: reference.streamDisplayMatrix)
        let source = try original.map { try Demuxer(path: $0) }
        if let source { source.videoStream.pointee.discard = AVDISCARD_ALL }
        let audio = try source.map { try AudioCopy(from: $0, into: muxer) }
        try muxer.start()

        var result = Result()
        let outputTimeBase = muxer.timeBase(ofStream: video)
        var lastDTS = Int64.min
        let audioPacket = Packet()
        var audioPending = false
        var audioDone = source == nil
        // Audio packets up to `time` (output video time base; nil: all that are left).
        func copyAudio(until time: Int64?) throws {
            guard let source, let audio else { return }
            while !audioDone {
                if !audioPending {
                    audioPending = try source.readPacket(into: audioPacket)
                    if !audioPending { audioDone = true; return }
                    guard audio.copies(audioPacket) else { audioPending = false; continue }
                }
                let packetTime = audioPacket.pointer.pointee.dts != ft_nopts_value() ? audioPacket.pointer.pointee.dts
                    : audioPacket.pointer.pointee.pts
                let packetBase = source.stream(audioPacket.streamIndex).pointee.time_base
                if let time, packetTime != ft_nopts_value(), av_compare_ts(packetTime, packetBase, time, outputTimeBase) > 0 {
                    return
                }
                try audio.copy(audioPacket, into: muxer)
                result.audioPackets += 1
                audioPending = false
            }
        }

        for (number, part) in parts.enumerated() {
            let demuxer = number == 0 ? reference : try Demuxer(path: part.path)
            try checkSameEncoding(demuxer, as: reference, part: part.path, first: first.path)
            let partTimeBase = demuxer.videoTimeBase
            let stream = demuxer.videoStream.pointee
            let start = stream.start_time != ft_nopts_value() ? stream.start_time : 0
            // The shift that puts the part's first frame at its place, in the output's time base.
            let shift = av_rescale_q(part.firstPTS, timeBase.rational, outputTimeBase)
                - av_rescale_q(start, partTimeBase, outputTimeBase)
            let packet = Packet()
            var frames = 0
            while try demuxer.readPacket(into: packet) {
                guard packet.streamIndex == demuxer.videoStreamIndex else { continue }
                let p = packet.pointer
                if frames == 0 && p.pointee.flags & AV_PKT_FLAG_KEY == 0 {
                    throw MediaError.partsDoNotJoin(part.path, reason: "the part does not start with a key frame")
                }
                av_packet_rescale_ts(p, partTimeBase, outputTimeBase)
                if p.pointee.pts != ft_nopts_value() { p.pointee.pts += shift }
                if p.pointee.dts != ft_nopts_value() {
                    p.pointee.dts += shift
                    if p.pointee.dts <= lastDTS { p.pointee.dts = lastDTS + 1 }
                    if p.pointee.pts != ft_nopts_value(), p.pointee.dts > p.pointee.pts {
                        throw MediaError.partsDoNotJoin(part.path, reason: "its timestamps overlap the previous part's; "
                                                       + "the parts were not cut from one plan")
                    }
                    lastDTS = p.pointee.dts
                }
                try copyAudio(until: p.pointee.dts != ft_nopts_value() ? p.pointee.dts : p.pointee.pts)
                try muxer.write(packet, timeBase: outputTimeBase, streamIndex: video)
                frames += 1
            }
            guard frames == part.frames else {
                throw MediaError.partsDoNotJoin(part.path, reason: "the part holds \(frames) frames, its plan \(part.frames)")
            }
            result.frames += frames
        }
        try copyAudio(until: nil)
        result.damagedAudioPackets = audio?.damagedPackets ?? 0
        try muxer.finish()
        return result
    }

    /// Throws unless `demuxer`'s video is encoded as `reference`'s (the first part's).
    private static func checkSameEncoding(_ demuxer: Demuxer, as reference: Demuxer, part: String, first: String) throws {
        guard demuxer !== reference else { return }
        let a = reference.videoStream.pointee.codecpar.pointee, b = demuxer.videoStream.pointee.codecpar.pointee
        let sameHeaders = a.extradata_size == b.extradata_size
            && (a.extradata_size == 0 || memcmp(a.extradata, b.extradata, Int(a.extradata_size)) == 0)
        guard a.codec_id == b.codec_id, a.width == b.width, a.height == b.height, a.format == b.format, sameHeaders else {
            throw MediaError.partsDoNotJoin(part, reason: "the part is encoded differently from \(first) (codec, size or "
                                           + "encoder settings); parts join by stream copy only when encoded alike")
        }
    }
}
