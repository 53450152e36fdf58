internal import CFFmpeg
import FaceCore

/// A stream's time base as a fraction of a second (`num/den`), as the plan files store it.
package struct TimeBase: Sendable, Equatable, Codable {
    /// Numerator.
    package var num: Int32
    /// Denominator.
    package var den: Int32

    /// Creates a time base.
    package init(num: Int32, den: Int32) {
        self.num = num
        self.den = den
    }

    init(_ rational: AVRational) { self.init(num: rational.num, den: rational.den) }

    var rational: AVRational { AVRational(num: num, den: den) }

    /// `value` of this time base in seconds.
    package func seconds(_ value: Int64) -> Double { Double(value) * Double(num) / Double(den) }
}

/// Where the key frames of a video are, and how many frames come before each, found by reading
/// the packets' headers only: no frame is decoded, so a two-hour file is planned in the time its
/// bytes take to read (`facetrack split-plan`).
///
/// Frames are numbered in presentation order from 0, as `VideoReader` numbers them: the number of
/// a key frame is the count of frames shown before it (packets whose timestamp is lower), which
/// also holds for open GOPs, where pictures decoded after a key frame are shown before it.
package struct KeyframeIndex: Sendable, Equatable {
    /// One key frame: where decoding can start.
    package struct Keyframe: Sendable, Equatable {
        /// Its frame number (frames shown before it).
        package var frame: Int
        /// Presentation timestamp, in the stream's time base.
        package var pts: Int64
        /// Decoding timestamp, when the packet has one.
        package var dts: Int64?
    }

    /// The file read.
    package var path: String
    /// Frames of the video stream (its packets).
    package var frames: Int
    /// The key frames, in presentation order (the first frame's is first when the stream starts with one).
    package var keyframes: [Keyframe]
    /// The video stream's time base.
    package var timeBase: TimeBase
    /// Average frame rate, if the file states one.
    package var framesPerSecond: Double?
    /// Presentation timestamps of the first and the last frame.
    package var firstPTS: Int64, lastPTS: Int64

    /// Reads every packet header of `path`'s video stream (audio is skipped unread where the
    /// container allows). Throws a one-line `MediaError` naming the file when it has no video,
    /// no timestamps or no key frame to start from.
    package static func scan(path: String) throws -> KeyframeIndex {
        let demuxer = try Demuxer(path: path)
        guard !demuxer.isSinglePicture else { throw MediaError.notSplittable(path, reason: "it is a single picture") }
        for index in demuxer.audioStreamIndexes { demuxer.stream(index).pointee.discard = AVDISCARD_ALL }
        let packet = Packet()
        var timestamps: [Int64] = []
        var keys: [(pts: Int64, dts: Int64?)] = []
        while true {
            let more: Bool
            do {
                more = try demuxer.readPacket(into: packet)
            } catch let error as FFmpegError {
                throw MediaError.failed(path, error)
            }
            guard more else { break }
            let p = packet.pointer.pointee
            guard packet.streamIndex == demuxer.videoStreamIndex, p.flags & AV_PKT_FLAG_DISCARD == 0 else { continue }
            let dts = p.dts == ft_nopts_value() ? nil : p.dts
            guard let pts = p.pts == ft_nopts_value() ? dts : p.pts else {
                throw MediaError.notSplittable(path, reason: "its video packets carry no timestamps (remux it, e.g. to .mkv)")
            }
            timestamps.append(pts)
            if p.flags & AV_PKT_FLAG_KEY != 0 { keys.append((pts, dts)) }
        }
        guard !timestamps.isEmpty else { throw MediaError.noFrames(path) }
        let sorted = timestamps.sorted()
        for i in sorted.indices.dropFirst() where sorted[i] == sorted[i - 1] {
            throw MediaError.notSplittable(path, reason: "two video frames share the timestamp \(sorted[i])")
        }
        // A key frame's number: how many frames are shown before it.
        let keyframes = keys.map { key in
            Keyframe(frame: lowerBound(of: key.pts, in: sorted), pts: key.pts, dts: key.dts)
        }.sorted { $0.pts < $1.pts }
        guard keyframes.first?.frame == 0 else {
            throw MediaError.notSplittable(path, reason: "its first frame is not a key frame")
        }
        return KeyframeIndex(path: path, frames: sorted.count, keyframes: keyframes, timeBase: TimeBase(demuxer.videoTimeBase),
                             framesPerSecond: demuxer.framesPerSecond, firstPTS: sorted[0], lastPTS: sorted[sorted.count - 1])
    }

    /// The index of the first element of `sorted` not below `value`.
    private static func lowerBound(of value: Int64, in sorted: [Int64]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Seconds from the first frame to just after the last (one frame's duration added).
    package var duration: Double {
        let frame = framesPerSecond.map { $0 > 0 ? 1 / $0 : 0 } ?? 0
        return timeBase.seconds(lastPTS - firstPTS) + frame
    }

    /// The last key frame at or before frame `frame`.
    package func keyframe(atOrBefore frame: Int) -> Keyframe {
        keyframes.last { $0.frame <= frame } ?? keyframes[0]
    }
}
