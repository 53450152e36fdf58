import FaceCore
import Foundation

/// One stretch of a track on the timeline: consecutive frames of one kind (detected or predicted).
/// A lone predicted frame between detections on the frames before and after it counts as
/// detected: a steady face is cropped every other frame and the frame between is written on the
/// line between its detections, which says nothing about where the detector lost the face.
package struct TrackSpan: Sendable, Equatable {
    /// Time of the first and last frame in the span, seconds.
    package var start: Double, end: Double
    /// First and last frame.
    package var firstFrame: Int, lastFrame: Int
    /// True when the tracker predicted (most of) these frames.
    package var predicted: Bool
}

/// What the report shows of one track.
package struct TrackInfo: Sendable {
    /// The track ID.
    package var id: Int
    /// The identity label, when the CSV names one.
    package var person: String?
    /// First and last frame and their times.
    package var firstFrame: Int, lastFrame: Int
    package var firstTime: Double, lastTime: Double
    /// Frames reported (detected plus predicted), and those detected.
    package var frames: Int, detectedFrames: Int
    /// Mean confidence over the detected frames (all frames when none was detected).
    package var meanConfidence: Double
    /// Shares of measured frames where the face smiled / had its eyes closed; nil when not measured.
    package var smilingShare: Double?, eyesClosedShare: Double?
    /// Where the track is present, in frame order: runs of consecutive frames.
    package var intervals: [TrackSpan]
    /// The row chosen for the thumbnail: largest, most frontal, most confident.
    package var best: FaceRow

    /// Seconds covered from first to last frame.
    package var duration: Double { lastTime - firstTime }
}

/// The tracks of a CSV (or a run) summarised for the report: per-track intervals and best frames,
/// plus per-frame counts for the plots.
package struct TrackModel: Sendable {
    /// Tracks by ID.
    package let tracks: [TrackInfo]
    /// Face rows (with or without a track).
    package let faces: Int
    /// Frames of the video: the video's count when known, else one past the highest frame listed.
    package let frameCount: Int
    /// Time at the start of the timeline: the video's first frame when known (1.4 s for an MPEG-TS
    /// copy, negative after an offset), else 0 or the earliest time listed when that is negative.
    package let startTime: Double
    /// Seconds from `startTime`: the video's duration when known, else to the last time listed plus one frame.
    package let duration: Double
    /// Mean faces per frame in up to `faceBins` stretches of the frames, in order (memory follows
    /// the bins, not the highest frame number).
    package let facesOverTime: [Double]
    /// Confidence of every detected face, for the histogram.
    package let confidences: [Double]
    /// Whether identities exist (a `person` column).
    package let hasPersons: Bool

    /// Stretches of the faces-per-frame plot.
    static let faceBins = 300

    /// Distinct persons named.
    package var persons: [String] { Array(Set(tracks.compactMap(\.person))).sorted() }

    /// Builds the model. `videoFrames`, `videoDuration` and `videoStart` come from the video when it is known.
    package init(_ input: FaceRows, videoFrames: Int? = nil, videoDuration: Double? = nil, videoStart: Double? = nil) {
        let rows = input.rows
        let lastFrame = input.lastFrame
        let frameCount = max(videoFrames ?? 0, lastFrame + 1)
        // One frame's length: from the times of the rows, else 25 fps.
        var frameLength = 1.0 / 25
        if lastFrame > input.firstFrame, input.lastTime > input.firstTime {
            frameLength = (input.lastTime - input.firstTime) / Double(lastFrame - input.firstFrame)
        }
        self.frameCount = frameCount
        startTime = videoStart ?? min(0, input.firstTime)
        duration = max(videoDuration ?? 0, rows.isEmpty ? 0 : input.lastTime - startTime + frameLength)
        faces = rows.count
        hasPersons = input.hasPersonColumn

        let bins = max(1, min(Self.faceBins, frameCount))
        var sums = [Double](repeating: 0, count: bins)
        var confidences: [Double] = []
        confidences.reserveCapacity(rows.count)
        var byTrack: [Int: [Int]] = [:]
        for (i, row) in rows.enumerated() {
            if row.frame < frameCount { sums[Self.bin(of: row.frame, frames: frameCount, bins: bins)] += 1 }
            if !row.predicted { confidences.append(row.confidence) }
            if let id = row.trackID { byTrack[id, default: []].append(i) }
        }
        facesOverTime = (0..<bins).map { b in
            let frames = Self.firstFrame(ofBin: b + 1, frames: frameCount, bins: bins) - Self.firstFrame(ofBin: b, frames: frameCount, bins: bins)
            return frames > 0 ? sums[b] / Double(frames) : 0
        }
        self.confidences = confidences
        tracks = byTrack.keys.sorted().map { TrackModel.track($0, rows: byTrack[$0]!.map { rows[$0] }) }
    }

    /// The bin of a frame when `frames` frames are split into `bins` equal stretches.
    static func bin(of frame: Int, frames: Int, bins: Int) -> Int {
        min(bins - 1, Int(Double(frame) * Double(bins) / Double(frames)))
    }

    /// The first frame that falls in `bin` (`frames` for `bin == bins`).
    static func firstFrame(ofBin bin: Int, frames: Int, bins: Int) -> Int {
        guard bin > 0 else { return 0 }
        guard bin < bins else { return frames }
        // The smallest frame f with bin(of: f) >= bin, found from the estimate by stepping.
        var f = Int((Double(bin) * Double(frames) / Double(bins)).rounded(.up))
        while f > 0 && Self.bin(of: f - 1, frames: frames, bins: bins) >= bin { f -= 1 }
        while f < frames && Self.bin(of: f, frames: frames, bins: bins) < bin { f += 1 }
        return f
    }

    /// One track from its rows.
    static func track(_ id: Int, rows unsorted: [FaceRow]) -> TrackInfo {
        let rows = unsorted.sorted { $0.frame < $1.frame }
        var intervals: [TrackSpan] = []
        var detected = 0, confidenceSum = 0.0, allConfidence = 0.0
        var smiles = 0, smileMeasured = 0, closed = 0, closedMeasured = 0
        var person: String?
        // Frames of detected rows, to tell a lone filled frame between two detections (`TrackSpan`).
        let detectedFrameNumbers = Set(rows.lazy.filter { !$0.predicted }.map(\.frame))
        for row in rows {
            let drawnPredicted = row.predicted
                && !(detectedFrameNumbers.contains(row.frame - 1) && detectedFrameNumbers.contains(row.frame + 1))
            if !row.predicted { detected += 1; confidenceSum += row.confidence }
            allConfidence += row.confidence
            if let smiling = row.smiling { smileMeasured += 1; if smiling { smiles += 1 } }
            if let eyesClosed = row.eyesClosed { closedMeasured += 1; if eyesClosed { closed += 1 } }
            if person == nil { person = row.person }
            if var last = intervals.last, row.frame == last.lastFrame + 1, last.predicted == drawnPredicted {
                last.lastFrame = row.frame
                last.end = row.time
                intervals[intervals.count - 1] = last
            } else if let last = intervals.last, row.frame <= last.lastFrame {
                continue  // a repeated frame
            } else {
                intervals.append(TrackSpan(start: row.time, end: row.time, firstFrame: row.frame, lastFrame: row.frame,
                                           predicted: drawnPredicted))
            }
        }
        return TrackInfo(id: id, person: person, firstFrame: rows.first!.frame, lastFrame: rows.last!.frame,
                         firstTime: rows.first!.time, lastTime: rows.last!.time, frames: rows.count, detectedFrames: detected,
                         meanConfidence: detected > 0 ? confidenceSum / Double(detected) : allConfidence / Double(rows.count),
                         smilingShare: smileMeasured > 0 ? Double(smiles) / Double(smileMeasured) : nil,
                         eyesClosedShare: closedMeasured > 0 ? Double(closed) / Double(closedMeasured) : nil,
                         intervals: intervals, best: bestRow(rows))
    }

    /// The thumbnail's row: the highest product of size (relative to the track's largest face),
    /// frontality (cosine of the yaw, when measured) and confidence, among detected rows when
    /// there are any (a predicted box may be off the face). Ties go to the earlier frame.
    static func bestRow(_ rows: [FaceRow]) -> FaceRow {
        let candidates = rows.contains { !$0.predicted } ? rows.filter { !$0.predicted } : rows
        let largest = candidates.map { $0.box.width * $0.box.height }.max() ?? 1
        func score(_ row: FaceRow) -> Double {
            let size = largest > 0 ? row.box.width * row.box.height / largest : 1
            let frontal = row.yaw.map { max(0.05, cos(min(90, abs($0)) * .pi / 180)) } ?? 1
            return size * frontal * max(0.01, row.confidence)
        }
        var best = candidates[0], bestScore = score(best)
        for row in candidates.dropFirst() {
            let s = score(row)
            if s > bestScore { best = row; bestScore = s }
        }
        return best
    }
}
