import FaceCore

/// One tracked face inside the `Tracker`: its Kalman filter, its life-cycle counters, its smoother
/// and the statistics behind its summary.
final class Track {
    /// Creation order, used to keep every loop deterministic.
    let serial: Int
    /// The package ID, assigned on confirmation.
    var id: Int?
    /// The filter, predicted every frame.
    private(set) var filter: KalmanBoxFilter
    /// The filter right after the last real measurement, for the observation-centric re-update.
    private var filterAtLastUpdate: KalmanBoxFilter
    /// The last measured face (box and landmarks), used for predicted rows.
    private(set) var lastObservation: FaceObservation
    /// The predicted box for the current frame.
    private(set) var predictedBox: Rect
    /// Frames (tracker steps) since the last matched detection.
    private(set) var stepsSinceUpdate = 0
    /// Detector runs in a row that missed this track.
    var missedRuns = 0
    /// Detector runs in a row that matched this track.
    var hitStreak = 1
    /// One Euro filters for the display copy.
    var smoother: FaceSmoother
    /// The row to report on the current frame, set while associating.
    var pending: (observation: FaceObservation, source: ObservationSource)?

    /// Frames reported for this track (detected or predicted).
    private(set) var frameCount = 0
    /// Frames on which the detector found this track.
    private(set) var detectedFrameCount = 0
    private var confidenceSum = 0.0
    private var firstFrame = 0, lastFrame = 0
    private var firstTime = 0.0, lastTime = 0.0

    /// Starts a track at a detection.
    init(serial: Int, observation: FaceObservation, configuration: TrackerConfiguration) {
        self.serial = serial
        let start = BoxMeasurement(observation.bounds)
        filter = KalmanBoxFilter(start)
        filterAtLastUpdate = filter
        lastObservation = observation
        predictedBox = observation.bounds
        smoother = FaceSmoother(configuration: configuration)
    }

    /// Advances the filter one frame and computes the predicted box.
    func predict() {
        filter.predict()
        stepsSinceUpdate += 1
        if let box = filter.measurement.rect {
            predictedBox = box
        } else {
            // The filter's size went out of range: keep the last measured size at the predicted centre.
            let state = filter.state, last = lastObservation.bounds
            let center = state[0].isFinite && state[1].isFinite ? Point(x: state[0], y: state[1]) : last.center
            predictedBox = Rect(centerX: center.x, centerY: center.y, width: last.width, height: last.height)
        }
    }

    /// Corrects the filter with a matched detection. After a gap (frames without a match), the
    /// filter is first rewound to the last measurement and re-run along a straight line from that
    /// measurement to this one (OC-SORT's observation-centric re-update), so the velocity it
    /// carries on with reflects the real motion over the gap rather than a drifting prediction.
    func update(with observation: FaceObservation) {
        let gap = stepsSinceUpdate
        if gap > 1 {
            filter.copy(from: filterAtLastUpdate)
            let from = lastObservation.bounds, to = observation.bounds
            for k in 1..<gap {
                let t = Double(k) / Double(gap)
                let virtual = Rect(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t,
                                   width: from.width + (to.width - from.width) * t,
                                   height: from.height + (to.height - from.height) * t)
                filter.predict()
                filter.update(BoxMeasurement(virtual))
            }
            filter.predict()
        }
        filter.update(BoxMeasurement(observation.bounds))
        filterAtLastUpdate.copy(from: filter)
        lastObservation = observation
        stepsSinceUpdate = 0
        missedRuns = 0
    }

    /// The last measured face moved onto the predicted box.
    var predictedObservation: FaceObservation { lastObservation.moved(to: predictedBox) }

    /// Counts a reported row in the statistics.
    func record(_ observation: FaceObservation, source: ObservationSource, frame: Int, time rawTime: Double) {
        // Keep the summary encodable: a non-finite timestamp repeats the previous one.
        let time = rawTime.isFinite ? rawTime : lastTime
        if frameCount == 0 { firstFrame = frame; firstTime = time }
        frameCount += 1
        lastFrame = frame
        lastTime = time
        if source == .detected {
            detectedFrameCount += 1
            confidenceSum += observation.confidence
        }
    }

    /// The summary of a confirmed track, `nil` before confirmation.
    var summary: TrackSummary? {
        guard let id else { return nil }
        return TrackSummary(id: id, firstFrame: firstFrame, lastFrame: lastFrame, firstTime: firstTime,
                            lastTime: lastTime, frameCount: frameCount, detectedFrameCount: detectedFrameCount,
                            meanConfidence: detectedFrameCount > 0 ? confidenceSum / Double(detectedFrameCount) : 0)
    }
}
