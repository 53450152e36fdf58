import FaceCore

/// Multi-face tracking by detection: SORT's Kalman filter per face, optimal IoU assignment,
/// ByteTrack's second pass for low-score detections, C-BIoU's buffered recovery of lost tracks
/// and OC-SORT's re-update after a gap, with One Euro smoothing of the boxes and landmarks used
/// for drawing.
///
/// Each call to `update` is one frame:
/// - Every track predicts its box. On frames without detection (`detections == nil`), confirmed
///   tracks missed by at most `reportMissedFrames` detector runs are reported as `.predicted`.
/// - Otherwise detections at or above `highThreshold` are matched to all tracks (pass 1), then the
///   confirmed tracks left over are matched to detections in [`lowThreshold`, `highThreshold`)
///   (pass 2), then confirmed tracks missed on earlier frames to the high-score detections left,
///   both boxes enlarged by `recoveryBuffer` on every side (pass 3). Matched tracks report the
///   detection (with its pass as the row's source); unmatched confirmed tracks are reported as
///   `.predicted` while missed by at most `reportMissedFrames` runs in a row and dropped once
///   unseen for more than `maxAge` frames; an unmatched tentative
///   track is dropped at once. Unmatched detections at or above `birthThreshold` start tentative
///   tracks, reported with `trackID == nil`; unmatched ones between `highThreshold` and
///   `birthThreshold` are reported in no track (`trackSerial == 0`): they count as faces (to hide
///   them, say) but start nothing. With `holdsMasks` and a `maskThreshold`, so are detections
///   below `highThreshold` but at or above `maskThreshold` that continue no track (masks only).
/// - A track gets its ID after `minHits` detector runs in a row, once a pass that looked straight
///   at it found it (`directLookThreshold`); IDs count 1, 2, 3… in order of confirmation and are
///   never reused.
///
/// Detections with a non-finite or empty box, coordinates beyond ±1,000,000 pixels or a
/// non-finite confidence are dropped and counted in `droppedDetectionCount`; landmarks that are
/// not finite are removed. Frames are counted per call, whatever the frame numbers say.
public final class Tracker: FaceTracker {
    /// The options in use (sanitised: out-of-range values pulled into range).
    public let configuration: TrackerConfiguration

    /// Detections dropped as unusable so far.
    public private(set) var droppedDetectionCount = 0
    /// How many tracks have been confirmed so far.
    public private(set) var confirmedTrackCount = 0

    private var tracks: [Track] = []
    private var nextSerial = 1
    /// `nil` when the caller summarises the rows it keeps itself (`init(rowsOnly:)`).
    private var statistics: TrackStatistics?
    /// `nil` when the caller smooths the rows it keeps itself, or `smoothing` is off.
    private var smoothing: TrackSmoothing?
    private let associator = IoUAssociator()
    // Scratch memory reused every frame.
    private var high: [FaceObservation] = []
    private var low: [FaceObservation] = []
    private var trackBoxes: [Rect] = []
    private var detectionBoxes: [Rect] = []
    private var candidates: [Int] = []
    private var matches: [Match] = []
    private var trackMatched: [Bool] = []
    private var highMatched: [Bool] = []
    private var lowMatched: [Bool] = []
    private var untracked: [FaceObservation] = []

    /// Creates a tracker.
    public init(configuration: TrackerConfiguration = TrackerConfiguration()) {
        self.configuration = configuration.sanitized
        statistics = TrackStatistics()
        if self.configuration.smoothing { smoothing = TrackSmoothing(configuration: self.configuration) }
    }

    /// A tracker that only decides rows, for a caller that smooths and summarises the rows it
    /// finally keeps (the pipeline, after its look-ahead): no smoothing, no statistics, so
    /// `trackSummaries` stays empty.
    package init(rowsOnly configuration: TrackerConfiguration) {
        self.configuration = configuration.sanitized
    }

    /// Advances one frame; see the type's documentation. Rows come confirmed tracks first, by ID,
    /// then tentative tracks in order of creation, then faces in no track.
    public func update(frame: Int, time: Double, detections: [FaceObservation]?) -> [TrackedFace] {
        update(frame: frame, time: time, detections: detections, coverage: nil)
    }

    /// `update` for a detector that looked at parts of the frame only: `coverage` tells whether it
    /// looked at a box (closely enough to have found a face there). A track it did not look at is
    /// not counted as missed: it is reported as predicted, and a tentative one lives on.
    package func update(frame: Int, time: Double, detections: [FaceObservation]?, coverage: ((Rect) -> Bool)?)
        -> [TrackedFace] {
        for track in tracks { track.predict() }
        untracked.removeAll(keepingCapacity: true)
        if let detections {
            associate(detections, coverage: coverage)
        } else {
            for track in tracks where holds(track) || (track.id != nil && track.missedRuns <= configuration.reportMissedFrames) {
                track.pending = (track.predictedObservation, .predicted)
            }
        }
        var rows: [TrackedFace] = []
        rows.reserveCapacity(tracks.count + untracked.count)
        // Confirmed tracks were created in the order of their IDs, so creation order sorts them.
        reportPending(confirmed: true, into: &rows)
        reportPending(confirmed: false, into: &rows)
        for observation in untracked { rows.append(TrackedFace(observation: observation, trackID: nil)) }
        if detections != nil { removeLostTracks() }
        statistics?.add(frame: frame, time: time, rows: rows)
        smoothing?.smooth(&rows, frame: frame, time: time)
        return rows
    }

    /// At the end of the input: confirms the tentative tracks that were never missed and were seen
    /// directly (the video ended before they could reach `minHits`; a one-frame input has only such
    /// tracks) and returns their serials and new IDs.
    package func confirmAtEnd() -> [(serial: Int, id: Int)] {
        var confirmed: [(serial: Int, id: Int)] = []
        for track in tracks where track.id == nil && track.missedRuns == 0 && track.seenDirectly {
            confirm(track)
            confirmed.append((track.serial, track.id!))
        }
        return confirmed
    }

    /// Ends every track at once (a shot cut): later faces start new tracks.
    public func endAllTracks() {
        tracks.removeAll()
    }

    /// Where each live track is expected `steps` frames after the last `update`, for a detection
    /// scheduler that looks where faces will be. Tracks come in creation order.
    public func forecast(steps: Int) -> [TrackForecast] {
        tracks.map { track in
            let motion = track.motionPerFrame
            return TrackForecast(serial: track.serial, id: track.id, box: track.forecast(steps: steps),
                                 missedRuns: track.missedRuns, pixelsPerFrame: motion.distance,
                                 areaChangePerFrame: motion.areaChange)
        }
    }

    /// The most frames any confirmed track has covered so far.
    public var longestTrackFrameCount: Int { statistics?.longestTrackFrameCount ?? 0 }

    /// Every confirmed track's summary so far (finished and running), by ID.
    public var trackSummaries: [TrackSummary] { statistics?.summaries ?? [] }

    /// The totals and the per-track summaries so far.
    public var summary: TrackingSummary {
        TrackingSummary(confirmedTrackCount: confirmedTrackCount, longestTrackFrameCount: longestTrackFrameCount,
                        droppedDetectionCount: droppedDetectionCount, tracks: trackSummaries)
    }

    // MARK: - Detection frames

    private func associate(_ detections: [FaceObservation], coverage: ((Rect) -> Bool)?) {
        split(detections)
        trackMatched.removeAll(keepingCapacity: true)
        trackMatched.append(contentsOf: repeatElement(false, count: tracks.count))
        highMatched.removeAll(keepingCapacity: true)
        highMatched.append(contentsOf: repeatElement(false, count: high.count))

        // Pass 1: high-score detections against every track.
        candidates.removeAll(keepingCapacity: true)
        candidates.append(contentsOf: tracks.indices)
        match(high, threshold: configuration.iouThreshold, detectionMatched: &highMatched)

        // Pass 2: low-score detections keep confirmed tracks going through a confidence dip.
        if configuration.secondPass, !low.isEmpty {
            candidates.removeAll(keepingCapacity: true)
            for (i, track) in tracks.enumerated() where !trackMatched[i] && track.id != nil { candidates.append(i) }
            lowMatched.removeAll(keepingCapacity: true)
            lowMatched.append(contentsOf: repeatElement(false, count: low.count))
            match(low, threshold: configuration.lowIoUThreshold, detectionMatched: &lowMatched)
            for (d, detection) in low.enumerated() where !lowMatched[d] && masksBelowThreshold(detection) {
                untracked.append(detection)
            }
        }

        // Pass 3: confirmed tracks lost on earlier frames against the high-score detections left,
        // as buffered boxes (a hidden face's forecast drifts from where it reappears).
        if configuration.recoveryBuffer > 0 {
            candidates.removeAll(keepingCapacity: true)
            for (i, track) in tracks.enumerated() where !trackMatched[i] && track.id != nil && track.missedRuns > 0 {
                candidates.append(i)
            }
            if !candidates.isEmpty, highMatched.contains(false) {
                match(high, threshold: configuration.iouThreshold, buffer: configuration.recoveryBuffer,
                      detectionMatched: &highMatched)
            }
        }

        // Confirmation and misses, in creation order so that IDs are deterministic.
        for (i, track) in tracks.enumerated() {
            if trackMatched[i] {
                track.hitStreak += 1
                if track.id == nil, track.hitStreak >= configuration.minHits, track.seenDirectly { confirm(track) }
            } else if let coverage, !coverage(track.predictedBox) {
                // Not looked at: nothing learnt, the track coasts.
                if holds(track) || track.missedRuns <= configuration.reportMissedFrames {
                    track.pending = (track.predictedObservation, .predicted)
                }
            } else {
                track.missedRuns += 1
                track.hitStreak = 0
                if holds(track) || (track.id != nil && track.missedRuns <= configuration.reportMissedFrames) {
                    track.pending = (track.predictedObservation, .predicted)
                }
            }
        }

        for (d, observation) in high.enumerated() where !highMatched[d] {
            guard observation.confidence >= configuration.birthThreshold ?? configuration.highThreshold else {
                untracked.append(observation)
                continue
            }
            let track = Track(serial: nextSerial, observation: observation)
            nextSerial += 1
            track.seenDirectly = isDirect(observation)
            if configuration.minHits <= 1, track.seenDirectly { confirm(track) }
            track.pending = (observation, observation.source)
            tracks.append(track)
        }
    }

    /// Sorts usable detections into `high` and `low` and counts the unusable ones.
    private func split(_ detections: [FaceObservation]) {
        high.removeAll(keepingCapacity: true)
        low.removeAll(keepingCapacity: true)
        for detection in detections {
            guard Self.isUsable(detection) else { droppedDetectionCount += 1; continue }
            if detection.confidence >= configuration.highThreshold {
                high.append(detection.withFiniteLandmarks)
            } else if configuration.secondPass, detection.confidence >= configuration.lowThreshold {
                low.append(detection.withFiniteLandmarks)
            } else if masksBelowThreshold(detection) {
                untracked.append(detection.withFiniteLandmarks)
            }
        }
    }

    /// Matches the tracks listed in `candidates` to the `detections` not yet matched and applies
    /// the matches; `buffer` enlarges both boxes by that fraction of their size on every side.
    private func match(_ detections: [FaceObservation], threshold: Double, buffer: Double = 0,
                       detectionMatched: inout [Bool]) {
        guard !candidates.isEmpty, !detections.isEmpty else { return }
        trackBoxes.removeAll(keepingCapacity: true)
        for i in candidates { trackBoxes.append(tracks[i].predictedBox.buffered(by: buffer)) }
        detectionBoxes.removeAll(keepingCapacity: true)
        // A detection already matched gets an empty box far away: it overlaps nothing.
        for (d, detection) in detections.enumerated() {
            detectionBoxes.append(detectionMatched[d] ? Rect(x: -1e9, y: -1e9, width: 0, height: 0) : detection.bounds.buffered(by: buffer))
        }
        matches.removeAll(keepingCapacity: true)
        associator.associate(tracks: trackBoxes, detections: detectionBoxes, threshold: threshold, into: &matches)
        for m in matches {
            let index = candidates[m.track]
            let track = tracks[index]
            let observation = detections[m.detection]
            trackMatched[index] = true
            detectionMatched[m.detection] = true
            if !track.seenDirectly { track.seenDirectly = isDirect(observation) }
            track.update(with: observation)
            track.pending = (observation, observation.source)
        }
    }

    /// Whether a pass that looked straight at the face found it confidently enough to confirm a track.
    private func isDirect(_ observation: FaceObservation) -> Bool {
        (observation.directConfidence ?? observation.confidence) >= configuration.directLookThreshold
    }

    /// Whether a detection below `highThreshold` that continues no track is masked (`maskThreshold`).
    private func masksBelowThreshold(_ detection: FaceObservation) -> Bool {
        guard configuration.holdsMasks, let threshold = configuration.maskThreshold else { return false }
        return detection.confidence >= threshold
    }

    /// Whether an unmatched track keeps its mask (`holdsMasks`): while unseen for at most `maxAge` frames.
    private func holds(_ track: Track) -> Bool {
        configuration.holdsMasks && track.stepsSinceUpdate <= configuration.maxAge
    }

    private func confirm(_ track: Track) {
        confirmedTrackCount += 1
        track.id = confirmedTrackCount
    }

    /// Drops tentative tracks that were missed (unless masks are held) and every track unseen for more than `maxAge` frames.
    private func removeLostTracks() {
        tracks.removeAll { track in
            (track.id == nil && track.missedRuns > 0 && !configuration.holdsMasks) || track.stepsSinceUpdate > configuration.maxAge
        }
    }

    // MARK: - Rows

    private func reportPending(confirmed: Bool, into rows: inout [TrackedFace]) {
        for track in tracks where (track.id != nil) == confirmed {
            guard let (observation, source) = track.pending else { continue }
            track.pending = nil
            track.reportedFrames += 1
            var row = TrackedFace(observation: observation, trackID: track.id, trackFrameCount: track.reportedFrames,
                                  source: source)
            row.trackSerial = track.serial
            if !source.isDetection {
                row.unseenFrames = track.stepsSinceUpdate
                row.unseenSpeed = track.relativeSpeed
            }
            rows.append(row)
        }
    }

    /// Largest coordinate accepted, in pixels: beyond it areas and IoUs lose all precision.
    private static let coordinateLimit = 1_000_000.0

    private static func isUsable(_ detection: FaceObservation) -> Bool {
        let b = detection.bounds
        return detection.isValid && abs(b.x) <= coordinateLimit && abs(b.y) <= coordinateLimit
            && b.width <= coordinateLimit && b.height <= coordinateLimit
    }
}

/// A live track's expected position, for the detection scheduler.
public struct TrackForecast: Sendable, Equatable {
    /// The tracker's number for the track (creation order).
    public var serial: Int
    /// The track's ID; `nil` while tentative.
    public var id: Int?
    /// The expected box.
    public var box: Rect
    /// Detector runs in a row that missed the track (0 when the last run found it).
    public var missedRuns: Int
    /// How far the track's filter expects the box's centre to move in one frame, in pixels
    /// (infinite when unknown).
    public var pixelsPerFrame: Double
    /// How much the filter expects the box's area to change in one frame, as a fraction of it
    /// (infinite when unknown).
    public var areaChangePerFrame: Double

    /// Creates a forecast; its motion unknown unless given.
    public init(serial: Int, id: Int?, box: Rect, missedRuns: Int, pixelsPerFrame: Double = .infinity,
                areaChangePerFrame: Double = .infinity) {
        self.serial = serial
        self.id = id
        self.box = box
        self.missedRuns = missedRuns
        self.pixelsPerFrame = pixelsPerFrame
        self.areaChangePerFrame = areaChangePerFrame
    }
}

private extension Rect {
    /// The box grown by `fraction` of its width and height on every side (itself for 0).
    func buffered(by fraction: Double) -> Rect {
        guard fraction > 0 else { return self }
        return Rect(x: x - width * fraction, y: y - height * fraction, width: width * (1 + 2 * fraction),
                    height: height * (1 + 2 * fraction))
    }
}
