/// The region an anonymisation mask is drawn in, before `--mask-scale`: the head around a face box,
/// grown while the face is not seen. The one definition: the pipeline computes it for every masked
/// face (and the tracks CSV writes it as `mask_x…mask_height`), the renderer draws the mask in it,
/// and `facetrack eval` rebuilds it from a CSV row that does not give it.
///
/// - Head: a detector's box is the face, from brow to chin. A face turned sideways gives a tall
///   narrow box centred on the visible half, while the head reaches back to the ear and beyond.
///   The region is widened to at least `headWidthShare` of its height and, in proportion to how
///   far the landmarks (eyes, mouth) sit off the box centre, by up to `backShare` of its height;
///   the added width goes behind the face (away from the side the landmarks sit on).
/// - Forecast: a held or interpolated box of a face no detector found on that frame lags a moving
///   face by more the longer it has not been seen and the faster it moves; the region grows about
///   its centre, per frame since (or until, for an interpolated box) the nearest detection, by
///   `growthPerFrame` of its size plus `growthPerSpeed` of the distance the box moves in a frame
///   (10 % of the way travelled on each side), at most to `maximumGrowth` times its size.
/// - Recent size: a detector sometimes finds only part of a face for a frame (half of it hidden,
///   turning, blurred), a box half the size of the face. Within a track, the region also covers
///   where the track's recent heads forecast the face, at their median size or the last one's if
///   smaller (`Recent`), so a mask does not shrink with such a box.
package enum MaskRegion {
    /// A head is at least this wide relative to its box height (frontal face boxes are 0.75-0.9 of their height).
    package static let headWidthShare = 0.8
    /// Width added behind a face in full profile, relative to the box height.
    package static let backShare = 0.35
    /// Growth of a forecast region per frame unseen, relative to its size (a still face).
    package static let growthPerFrame = 0.02
    /// Further growth per frame unseen, relative to the box's movement per frame.
    package static let growthPerSpeed = 0.2
    /// The largest growth factor.
    package static let maximumGrowth = 2.5
    /// The detections of a track that its size floor looks back over, in frames (0.2 s at 25 fps).
    package static let recentFrames = 5

    /// A tracked face's region: the one decided for output, else the one its drawn copy gives.
    package static func region(of face: TrackedFace) -> Rect {
        face.maskRegion ?? region(for: face.display, unseenFrames: face.unseenFrames, speed: face.unseenSpeed)
    }

    /// The region for `face` unseen for `unseenFrames` frames (0 for a detection), moving by
    /// `speed` of its height per frame.
    package static func region(for face: FaceObservation, unseenFrames: Int, speed: Double = 0) -> Rect {
        grown(head(of: face.bounds, leftEye: face.leftEye, rightEye: face.rightEye, mouth: face.mouth),
              unseenFrames: unseenFrames, speed: speed)
    }

    /// The head around a face box, from the landmarks the tracks CSV also gives (eyes, mouth);
    /// the box itself when it is not finite and positive.
    package static func head(of box: Rect, leftEye: Point?, rightEye: Point?, mouth: Point?) -> Rect {
        guard box.isValid else { return box }
        // Facing: -1 when the landmarks sit at the box's left edge (the face looks left), +1 at the right.
        let xs = [leftEye, rightEye, mouth].compactMap { $0 }.filter(\.isFinite).map(\.x)
        var facing = 0.0
        if !xs.isEmpty {
            let offset = (xs.reduce(0, +) / Double(xs.count) - box.center.x) / (box.width / 2)
            facing = offset.isFinite ? min(1, max(-1, offset)) : 0
        }
        let extra = max(0, headWidthShare * box.height - box.width) + backShare * abs(facing) * box.height
        guard extra > 0 else { return box }
        // All the extra width behind a profile face, half of it on each side of a frontal one.
        return Rect(x: box.x - extra * (1 + facing) / 2, y: box.y, width: box.width + extra, height: box.height)
    }

    /// `region` grown about its centre for a face unseen for `unseenFrames` frames, moving by
    /// `speed` of its height per frame.
    package static func grown(_ region: Rect, unseenFrames: Int, speed: Double = 0) -> Rect {
        guard unseenFrames > 0 else { return region }
        let perFrame = growthPerFrame + growthPerSpeed * (speed.isFinite ? min(max(speed, 0), 10) : 0)
        let factor = min(maximumGrowth, 1 + perFrame * Double(unseenFrames))
        let c = region.center
        return Rect(centerX: c.x, centerY: c.y, width: region.width * factor, height: region.height * factor)
    }

    /// The smallest rectangle holding both.
    package static func union(_ a: Rect, _ b: Rect) -> Rect {
        let x = min(a.x, b.x), y = min(a.y, b.y)
        return Rect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
    }

    /// The recent heads of every track, fed frame by frame in order (one per run): decides each
    /// masked face's region with the size floor.
    package struct Recent {
        private var heads: [Int: [(frame: Int, head: Rect)]] = [:]

        package init() {}

        /// The region of `face` on `frame`: for a detection, its head joined with the forecast of its
        /// track's heads detected in the last `recentFrames` frames (at least two; the head is
        /// recorded for the frames after); for a face not seen, its head grown (`grown`).
        package mutating func region(of face: TrackedFace, frame: Int) -> Rect {
            let d = face.display
            let detected = head(of: d.bounds, leftEye: d.leftEye, rightEye: d.rightEye, mouth: d.mouth)
            let serial = face.trackSerial
            // A forecast or interpolated box already grows with its uncertainty (`grown`).
            guard serial != 0, detected.isValid, face.unseenFrames == 0, face.source.isDetection else {
                return grown(detected, unseenFrames: face.unseenFrames, speed: face.unseenSpeed)
            }
            var recent = (heads[serial] ?? []).filter { frame - $0.frame <= recentFrames && $0.frame < frame }
            let region = Self.forecast(recent, frame: frame).map { union(detected, $0) } ?? detected
            recent.append((frame, detected))
            heads[serial] = recent
            return region
        }

        /// Forgets tracks not detected in the last `recentFrames` frames before `frame`.
        package mutating func forget(before frame: Int) {
            for (serial, list) in heads where !list.contains(where: { frame - $0.frame <= recentFrames }) {
                heads[serial] = nil
            }
        }

        /// Where `recent` (in frame order, at least two) puts the head on `frame`: the last centre moved on at
        /// the speed between the last two, at the median width and height (robust to one odd box), or
        /// the last one's where smaller (a face moving away shrinks steadily).
        static func forecast(_ recent: [(frame: Int, head: Rect)], frame: Int) -> Rect? {
            guard recent.count >= 2 else { return nil }
            let last = recent[recent.count - 1], before = recent[recent.count - 2]
            let steps = Double(frame - last.frame) / Double(last.frame - before.frame)
            let c = last.head.center, p = before.head.center
            return Rect(centerX: c.x + (c.x - p.x) * steps, centerY: c.y + (c.y - p.y) * steps,
                        width: min(last.head.width, median(recent.map(\.head.width))),
                        height: min(last.head.height, median(recent.map(\.head.height))))
        }

        private static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            let n = sorted.count
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        }
    }
}
