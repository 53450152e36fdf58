import FaceCore
import Foundation
import MediaIO

/// How one long video is cut for processing on several machines (`facetrack split-plan`): segments
/// that start at key frames and cover every frame once, each decoded from an earlier key frame
/// (the overlap) so that the tracker and the look-ahead have settled when its own frames begin.
///
/// Frames are numbered from 0 in presentation order, as a single run numbers them; a segment's
/// CSV uses those numbers, so the segments' rows line up with each other and with a single run.
package struct SplitPlan: Sendable, Equatable {
    /// The plan file format's version.
    package static let version = 1
    /// The overlap when none is asked for, in seconds: a few seconds let the tracker confirm and
    /// the look-ahead decide every face present at a segment's start (docs/batch.md).
    package static let defaultOverlap = 3.0

    /// One segment.
    package struct Segment: Sendable, Equatable, Codable {
        /// Its number, from 0.
        package var segment: Int
        /// Its first own frame (a key frame) and one past its last.
        package var startFrame: Int, endFrame: Int
        /// The presentation timestamp of its first frame (the stream's time base).
        package var startPTS: Int64
        /// Seconds of its first frame and of the next segment's (the video's end for the last).
        package var startTime: Double, endTime: Double
        /// The key frame decoding starts at: `startFrame`, or an earlier one for the overlap.
        package var decodeFrame: Int
        /// Its timestamps and time.
        package var decodePTS: Int64, decodeDTS: Int64?, decodeTime: Double

        // Spelled so that the snake-case keys of the file ("decode_dts") read back.
        private enum CodingKeys: String, CodingKey {
            case segment, startFrame, endFrame, startTime, endTime, decodeFrame, decodeTime
            case startPTS = "startPts", decodePTS = "decodePts", decodeDTS = "decodeDts"
        }

        /// The segment's own frames.
        package var frames: Range<Int> { startFrame..<endFrame }
        /// Its overlap with the segment before it, in frames (0 for the first).
        package var overlapFrames: Int { startFrame - decodeFrame }
    }

    /// The video, as an absolute path.
    package var input: String
    /// Its size in bytes and modification time (nanoseconds since 1970) when the plan was made:
    /// a segment refuses a file that changed since.
    package var inputBytes: Int64, inputModified: Int64
    /// Frames in the video.
    package var frames: Int
    /// The video stream's time base.
    package var timeBase: TimeBase
    /// Average frame rate, if the file states one.
    package var framesPerSecond: Double?
    /// The overlap asked for, in seconds.
    package var overlap: Double
    /// The segments, in order.
    package var segments: [Segment]

    /// What to cut into.
    package enum Cut: Sendable, Equatable {
        /// About this many segments of equal length.
        case segments(Int)
        /// Segments of about this many seconds.
        case seconds(Double)
    }

    /// Makes the plan for the video `index` describes: each segment starts at the key frame
    /// nearest to where an even cut would put it; segments that would start at the same key frame
    /// are merged (a video with few key frames gets fewer segments: `segments.count` says how many).
    package init(index: KeyframeIndex, cut: Cut, overlap: Double = SplitPlan.defaultOverlap) throws {
        let path = index.path
        input = SplitPlan.absolute(path)
        (inputBytes, inputModified) = try SplitPlan.identity(of: path)
        frames = index.frames
        timeBase = index.timeBase
        framesPerSecond = index.framesPerSecond
        self.overlap = overlap
        let wanted: Int
        switch cut {
        case .segments(let count): wanted = max(1, count)
        case .seconds(let seconds): wanted = max(1, Int((index.duration / seconds).rounded()))
        }
        // Starts: the key frame nearest to each even cut, each later than the one before.
        var starts = [index.keyframes[0]]
        for k in 1..<max(1, wanted) {
            let ideal = Double(index.frames) * Double(k) / Double(wanted)
            let candidates = index.keyframes.filter { $0.frame > starts.last!.frame }
            let distance = { (key: KeyframeIndex.Keyframe) in abs(Double(key.frame) - ideal) }
            guard let nearest = candidates.min(by: { distance($0) < distance($1) }) else { break }
            starts.append(nearest)
        }
        let seconds = { (pts: Int64) in index.timeBase.seconds(pts - index.firstPTS) }
        segments = starts.enumerated().map { k, start in
            let next = k + 1 < starts.count ? starts[k + 1] : nil
            // Decoding starts at the last key frame at least `overlap` seconds before the segment.
            let lead = k == 0 ? start
                : index.keyframes.last { seconds($0.pts) <= seconds(start.pts) - overlap } ?? index.keyframes[0]
            return Segment(segment: k, startFrame: start.frame, endFrame: next?.frame ?? index.frames, startPTS: start.pts,
                           startTime: seconds(start.pts), endTime: next.map { seconds($0.pts) } ?? index.duration,
                           decodeFrame: lead.frame, decodePTS: lead.pts, decodeDTS: lead.dts, decodeTime: seconds(lead.pts))
        }
    }

    /// Makes a plan from its parts (reading a file, tests).
    package init(input: String, inputBytes: Int64, inputModified: Int64, frames: Int, timeBase: TimeBase,
                 framesPerSecond: Double?, overlap: Double, segments: [Segment]) {
        self.input = input
        self.inputBytes = inputBytes
        self.inputModified = inputModified
        self.frames = frames
        self.timeBase = timeBase
        self.framesPerSecond = framesPerSecond
        self.overlap = overlap
        self.segments = segments
    }

    /// `path` made absolute (against the current folder) and normalised, links kept.
    package static func absolute(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }

    /// A file's size and modification time, to tell later whether it changed.
    static func identity(of path: String) throws -> (bytes: Int64, modified: Int64) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SegmentError.cannotRead(path, reason: FileBytes.reason(errno, path: path)) }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Throws unless `path` is the file the plan was made for, unchanged since (same size and
    /// modification time).
    package func checkInput(_ path: String) throws {
        let (bytes, modified) = try SplitPlan.identity(of: path)
        guard bytes == inputBytes, modified == inputModified else {
            throw SegmentError.inputChanged(path, plan: input)
        }
    }
}
