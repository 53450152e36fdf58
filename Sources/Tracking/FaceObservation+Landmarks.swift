import FaceCore

extension FaceObservation {
    /// How many optional landmark points an observation has.
    static let landmarkCount = 6

    /// Landmark number `index` (left eye, right eye, mouth, nose, left ear, right ear).
    func landmark(at index: Int) -> Point? {
        switch index {
        case 0: return leftEye
        case 1: return rightEye
        case 2: return mouth
        case 3: return nose
        case 4: return leftEar
        default: return rightEar
        }
    }

    /// Sets landmark number `index` (same order as `landmark(at:)`).
    mutating func setLandmark(at index: Int, _ point: Point?) {
        switch index {
        case 0: leftEye = point
        case 1: rightEye = point
        case 2: mouth = point
        case 3: nose = point
        case 4: leftEar = point
        default: rightEar = point
        }
    }

    /// The observation with non-finite landmarks, roll and yaw removed (set to `nil`).
    var withFiniteLandmarks: FaceObservation {
        var copy = self
        for i in 0..<Self.landmarkCount {
            if let p = landmark(at: i), !p.isFinite { copy.setLandmark(at: i, nil) }
        }
        if let r = roll, !r.isFinite { copy.roll = nil }
        if let y = yaw, !y.isFinite { copy.yaw = nil }
        return copy
    }

    /// The observation moved onto `box`: landmarks keep their place relative to the box, so they
    /// follow its shift and scale.
    func moved(to box: Rect) -> FaceObservation {
        var copy = self
        copy.bounds = box
        let old = bounds
        guard old.width > 0, old.height > 0 else { return copy }
        let sx = box.width / old.width, sy = box.height / old.height
        let oldCenter = old.center, newCenter = box.center
        for i in 0..<Self.landmarkCount {
            if let p = landmark(at: i) {
                copy.setLandmark(at: i, Point(x: newCenter.x + (p.x - oldCenter.x) * sx,
                                              y: newCenter.y + (p.y - oldCenter.y) * sy))
            }
        }
        return copy
    }

    /// The observation with each landmark that both `a` and `b` have put on the straight line
    /// between them, `t` of the way from `a` (0) to `b` (1); the others stay as they are.
    func withLandmarks(between a: FaceObservation, and b: FaceObservation, at t: Double) -> FaceObservation {
        var copy = self
        for i in 0..<Self.landmarkCount {
            if let p = a.landmark(at: i), let q = b.landmark(at: i) {
                copy.setLandmark(at: i, Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
            }
        }
        return copy
    }
}
