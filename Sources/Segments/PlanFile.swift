import FaceCore
import Foundation
import MediaIO

/// A split plan as a file: JSON Lines, a header line describing the video, then one line per
/// segment (keys in snake case, like the CSV columns):
///
/// ```
/// {"frames":6000,"frames_per_second":25,"input":"/data/long.mp4","input_bytes":…,"input_modified":…,
///  "overlap":3,"plan":1,"segments":3,"time_base":{"den":12800,"num":1}}
/// {"decode_dts":-1024,"decode_frame":0,"decode_pts":0,"decode_time":0,"end_frame":2000,"end_time":80,
///  "segment":0,"start_frame":0,"start_pts":0,"start_time":0}
/// (each object on one line in the file)
/// ```
extension SplitPlan {
    private struct Header: Codable {
        var plan: Int
        var input: String
        var inputBytes: Int64
        var inputModified: Int64
        var frames: Int
        var timeBase: TimeBase
        var framesPerSecond: Double?
        var overlap: Double
        var segments: Int
    }

    /// The largest plan file read (a line per segment: far more than any video needs).
    static let largestFile = 64 << 20

    /// The plan as JSON Lines, newline-terminated.
    package func text() throws -> String {
        let header = Header(plan: SplitPlan.version, input: input, inputBytes: inputBytes, inputModified: inputModified,
                            frames: frames, timeBase: timeBase, framesPerSecond: framesPerSecond, overlap: overlap,
                            segments: segments.count)
        var lines = [try JSONOutput.string(header, snakeCaseKeys: true)]
        for segment in segments { lines.append(try JSONOutput.string(segment, snakeCaseKeys: true)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads and checks a plan file; one-line errors name the file and the line.
    package init(path: String) throws {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > SplitPlan.largestFile {
            throw SegmentError.badPlan(path, line: 0, reason: "larger than \(SplitPlan.largestFile >> 20) MB: not a split plan")
        }
        let data = try SegmentError.read(path)
        let decoder = JSONDecoder.snakeCase
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
            .filter { !$0.element.allSatisfy { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 } }
        guard !lines.isEmpty else { throw SegmentError.badPlan(path, line: 0, reason: "the file is empty") }
        func decode<Value: Decodable>(_ type: Value.Type, _ line: (offset: Int, element: Data.SubSequence), what: String) throws
            -> Value {
            do {
                return try decoder.decode(type, from: Data(line.element))
            } catch {
                throw SegmentError.badPlan(path, line: line.offset + 1,
                                           reason: "not \(what) of a split plan (facetrack split-plan writes them)")
            }
        }
        let header = try decode(Header.self, lines.removeFirst(), what: "the first line")
        guard header.plan == SplitPlan.version else {
            throw SegmentError.badPlan(path, line: 1,
                                       reason: "plan version \(header.plan); this facetrack reads version \(SplitPlan.version)")
        }
        var segments: [Segment] = []
        for line in lines {
            let segment = try decode(Segment.self, line, what: "a segment line")
            try SplitPlan.check(segment, after: segments.last, frames: header.frames, path: path, line: line.offset + 1)
            segments.append(segment)
        }
        func require(_ condition: Bool, _ reason: String) throws {
            if !condition { throw SegmentError.badPlan(path, line: 1, reason: reason) }
        }
        try require(ValueBounds.frame.contains(header.frames) && header.frames > 0, "frames \(header.frames) is out of range")
        try require(header.timeBase.num > 0 && header.timeBase.den > 0, "the time base is not a positive fraction")
        try require(header.overlap.isFinite && header.overlap >= 0, "the overlap is not 0 or more seconds")
        try require(segments.count == header.segments,
                    "the header says \(header.segments) segments, the file has \(segments.count)")
        try require(segments.last?.endFrame == header.frames, "the segments do not end at the video's last frame")
        self.init(input: header.input, inputBytes: header.inputBytes, inputModified: header.inputModified, frames: header.frames,
                  timeBase: header.timeBase, framesPerSecond: header.framesPerSecond, overlap: header.overlap, segments: segments)
    }

    /// Throws unless `segment` follows `previous` (numbers in order, frames contiguous and in range).
    private static func check(_ segment: Segment, after previous: Segment?, frames: Int, path: String, line: Int) throws {
        func require(_ condition: Bool, _ reason: String) throws {
            if !condition { throw SegmentError.badPlan(path, line: line, reason: reason) }
        }
        let number = (previous?.segment ?? -1) + 1
        try require(segment.segment == number, "segment \(segment.segment) where segment \(number) was expected")
        try require(segment.startFrame == (previous?.endFrame ?? 0), "segment \(number) does not start where the one before ends")
        try require(segment.endFrame > segment.startFrame && segment.endFrame <= frames,
                    "segment \(number) has no frames or ends after the video")
        try require(segment.decodeFrame >= 0 && segment.decodeFrame <= segment.startFrame,
                    "segment \(number) decodes from a frame after its start")
        try require([segment.startTime, segment.endTime, segment.decodeTime].allSatisfy { ValueBounds.time.contains($0) },
                    "segment \(number) has a time out of range")
    }
}
