import FaceCore

/// One Euro filters for one track: box centre and size, and each landmark coordinate, driven by
/// the frame timestamps. A landmark that disappears restarts its filters when it comes back.
struct FaceSmoother {
    /// Box centre x, centre y, width, height, then x and y of each landmark.
    private var filters: [OneEuroFilter]
    private var lastTime: Double?

    /// Creates the filters with the configuration's One Euro parameters.
    init(configuration: TrackerConfiguration) {
        let prototype = OneEuroFilter(minCutoff: configuration.minCutoff, beta: configuration.beta,
                                      derivativeCutoff: configuration.derivativeCutoff)
        filters = [OneEuroFilter](repeating: prototype, count: 4 + 2 * FaceObservation.landmarkCount)
    }

    /// The smoothed copy of `observation` at `time` seconds. When the time does not move forward
    /// (or is not finite), one `fallbackInterval` is assumed to have passed.
    mutating func smooth(_ observation: FaceObservation, time: Double, fallbackInterval: Double) -> FaceObservation {
        var interval = fallbackInterval
        if let last = lastTime, time.isFinite, time - last > 0 { interval = time - last }
        if time.isFinite {
            lastTime = time
        } else if let last = lastTime {
            lastTime = last + fallbackInterval
        }

        var out = observation
        let box = observation.bounds
        let scale = box.height
        let cx = filters[0].filter(box.x + box.width / 2, interval: interval, speedScale: scale)
        let cy = filters[1].filter(box.y + box.height / 2, interval: interval, speedScale: scale)
        let w = filters[2].filter(box.width, interval: interval, speedScale: scale)
        let h = filters[3].filter(box.height, interval: interval, speedScale: scale)
        if w > 0, h > 0, cx.isFinite, cy.isFinite, w.isFinite, h.isFinite {
            out.bounds = Rect(centerX: cx, centerY: cy, width: w, height: h)
        }
        for i in 0..<FaceObservation.landmarkCount {
            let fx = 4 + 2 * i
            guard let p = observation.landmark(at: i) else {
                filters[fx].reset(); filters[fx + 1].reset()
                continue
            }
            out.setLandmark(at: i, Point(x: filters[fx].filter(p.x, interval: interval, speedScale: scale),
                                         y: filters[fx + 1].filter(p.y, interval: interval, speedScale: scale)))
        }
        return out
    }
}
