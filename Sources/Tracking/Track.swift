import FaceCore

/// One tracked face inside the `Tracker`: its Kalman filter and its life-cycle counters.
///
/// States, as in SORT/ByteTrack: *tentative* (`id == nil`) until `minHits` detector runs in a
/// row matched it, then *confirmed* (an ID); a confirmed track that misses runs is *lost* while
/// `stepsSinceUpdate <= maxAge`, and is removed after that. A tentative track that misses a run
/// is removed at once; one that only crops made around other faces find stays tentative.
final class Track {
    /// Creation order, used to keep every loop deterministic; also the row's `trackSerial`.
    let serial: Int
    /// The public ID, assigned on confirmation.
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
    /// Whether a pass that looked straight at the face found it (`directLookThreshold`): a tentative
    /// track is confirmed only then.
    var seenDirectly = false
    /// Rows reported so far (detected and predicted).
    var reportedFrames = 0
    /// The row to report on the current frame, set while associating.
    var pending: (observation: FaceObservation, source: ObservationSource)?

    /// Starts a track at a detection.
    init(serial: Int, observation: FaceObservation) {
        self.serial = serial
        filter = KalmanBoxFilter(BoxMeasurement(observation.bounds))
        filterAtLastUpdate = filter
        lastObservation = observation
        predictedBox = observation.bounds
    }

    /// Advances the filter one frame and computes the predicted box.
    func predict() {
        filter.predict()
        stepsSinceUpdate += 1
        predictedBox = box(of: filter.measurement)
    }

    /// How far the filter expects the box to move in one frame: its centre's displacement in
    /// pixels, and its area's change as a fraction of the area.
    var motionPerFrame: (distance: Double, areaChange: Double) {
        let s = filter.state
        let distance = (s[4] * s[4] + s[5] * s[5]).squareRoot()
        return (distance.isFinite ? distance : .infinity, s[2] > 0 && s[6].isFinite ? abs(s[6]) / s[2] : .infinity)
    }

    /// The box the filter expects `steps` frames after the current one, at constant velocity
    /// (the area's velocity is not applied beyond halving or doubling, which keeps a shrinking
    /// face from vanishing in the forecast).
    func forecast(steps: Int) -> Rect {
        guard steps > 0 else { return predictedBox }
        let s = filter.state, k = Double(steps)
        let area = min(max(s[2] + s[6] * k, s[2] / 2), s[2] * 2)
        return box(of: BoxMeasurement(centerX: s[0] + s[4] * k, centerY: s[1] + s[5] * k, area: area, aspect: s[3]))
    }

    /// A filter measurement as a box; when the filter's size went out of range, the last measured
    /// size at the filter's centre (or the last measured centre).
    private func box(of measurement: BoxMeasurement) -> Rect {
        if let box = measurement.rect { return box }
        let last = lastObservation.bounds
        let center = measurement.centerX.isFinite && measurement.centerY.isFinite
            ? Point(x: measurement.centerX, y: measurement.centerY) : last.center
        return Rect(centerX: center.x, centerY: center.y, width: last.width, height: last.height)
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

    /// How far the filter moves the box per frame, as a share of its height (0 when unknown).
    var relativeSpeed: Double {
        let s = filter.state
        let speed = (s[4] * s[4] + s[5] * s[5]).squareRoot() / predictedBox.height
        return speed.isFinite ? speed : 0
    }

    /// The last measured face moved onto the predicted box.
    var predictedObservation: FaceObservation { lastObservation.moved(to: predictedBox) }
}
