import FaceCore

/// Per-track statistics of reported rows, for `TrackSummary` (`--tracks-summary`) and the
/// longest-track count. Fed the rows of each frame in frame order; a track's rows count from its
/// first (tentative) frame, and only tracks that got an ID are summarised.
package struct TrackStatistics {
    private struct Running {
        var id: Int?
        var firstFrame: Int, lastFrame: Int
        var firstTime: Double, lastTime: Double
        var frames = 0, detected = 0
        var confidenceSum = 0.0
    }

    /// By track serial.
    private var tracks: [Int: Running] = [:]
    /// The most frames one track covered so far.
    package private(set) var longestTrackFrameCount = 0

    package init() {}

    /// Counts the rows of one frame.
    package mutating func add(frame: Int, time rawTime: Double, rows: [TrackedFace]) {
        for row in rows where row.trackSerial != 0 {
            let start = rawTime.isFinite ? rawTime : 0
            var track = tracks[row.trackSerial]
                ?? Running(firstFrame: frame, lastFrame: frame, firstTime: start, lastTime: start)
            track.id = row.trackID ?? track.id
            // Keep the summary encodable: a non-finite timestamp repeats the previous one.
            let time = rawTime.isFinite ? rawTime : track.lastTime
            if track.frames == 0 { track.firstTime = time }
            track.frames += 1
            track.lastFrame = frame
            track.lastTime = time
            if row.source.isDetection {
                track.detected += 1
                track.confidenceSum += row.observation.confidence
            }
            tracks[row.trackSerial] = track
            if track.id != nil { longestTrackFrameCount = max(longestTrackFrameCount, track.frames) }
        }
        // False starts (never confirmed) are forgotten, so memory stays flat on long videos.
        if frame % 256 == 0 { tracks = tracks.filter { $0.value.id != nil || frame - $0.value.lastFrame < 256 } }
    }

    /// One summary per track ID, by ID. Several tracks carrying one ID (re-identification
    /// continued an earlier track) are summed into one.
    package var summaries: [TrackSummary] {
        var byID: [Int: Running] = [:]
        for t in tracks.values {
            guard let id = t.id else { continue }
            guard var sum = byID[id] else { byID[id] = t; continue }
            if t.firstFrame < sum.firstFrame { (sum.firstFrame, sum.firstTime) = (t.firstFrame, t.firstTime) }
            if t.lastFrame > sum.lastFrame { (sum.lastFrame, sum.lastTime) = (t.lastFrame, t.lastTime) }
            sum.frames += t.frames
            sum.detected += t.detected
            sum.confidenceSum += t.confidenceSum
            byID[id] = sum
        }
        return byID.map { id, t in
            TrackSummary(id: id, firstFrame: t.firstFrame, lastFrame: t.lastFrame, firstTime: t.firstTime,
                         lastTime: t.lastTime.isFinite ? t.lastTime : 0, frameCount: t.frames,
                         detectedFrameCount: t.detected,
                         meanConfidence: t.detected > 0 ? t.confidenceSum / Double(t.detected) : 0)
        }.sorted { $0.id < $1.id }
    }
}

/// One Euro smoothing of reported rows for drawing: fills `TrackedFace.display` per track.
package struct TrackSmoothing {
    private let configuration: TrackerConfiguration
    private var smoothers: [Int: (smoother: FaceSmoother, lastFrame: Int)] = [:]

    package init(configuration: TrackerConfiguration) {
        self.configuration = configuration
    }

    /// Sets `display` of each row with a track (by serial) to its smoothed observation.
    package mutating func smooth(_ rows: inout [TrackedFace], frame: Int, time: Double) {
        for i in rows.indices where rows[i].trackSerial != 0 {
            let serial = rows[i].trackSerial
            var entry = smoothers[serial] ?? (FaceSmoother(configuration: configuration), frame)
            rows[i].display = entry.smoother.smooth(rows[i].observation, time: time, fallbackInterval: configuration.frameInterval)
            entry.lastFrame = frame
            smoothers[serial] = entry
        }
        // Forget tracks unseen for long, so memory stays flat on long videos.
        if frame % 256 == 0 { smoothers = smoothers.filter { frame - $0.value.lastFrame < 256 } }
    }
}
