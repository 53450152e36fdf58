import FaceCore

/// Holds the tracker's rows a few frames before they are written, so that what is written
/// follows decisions the tracker makes later (an offline tool can wait):
/// - a track confirmed within the window is written from its first detection, with its ID;
/// - a track never confirmed (a false start) is not written;
/// - a predicted row is written only when its track is found again within the window, and its box
///   is then interpolated between the detections on either side of the gap.
/// Rows that are not written (false starts, faces in no track, predictions never confirmed) are
/// still handed out as `hidden`, for anonymisation, which masks every face it can.
///
/// `Payload` travels with each frame (the pipeline's frame job). Frames come out in order, each
/// exactly once, `depth` frames after they went in (or at `flush()`).
package struct LookaheadBuffer<Payload> {
    /// One frame on its way out.
    package struct Frame {
        package let frame: Int
        package let time: Double
        package let payload: Payload
        /// The rows to write, with their final IDs.
        package var faces: [TrackedFace]
        /// The other faces of the frame: found or predicted, but not written.
        package var hidden: [TrackedFace]
    }

    /// Frames held before a frame is written.
    package let depth: Int
    private var held: [Frame] = []
    /// Track serial → ID, once confirmed.
    private var ids: [Int: Int] = [:]
    /// Track serial → the last frame a detector found it on.
    private var lastDetected: [Int: Int] = [:]

    /// A buffer holding `depth` frames (0: each frame leaves as it comes, nothing decided later).
    package init(depth: Int) {
        self.depth = max(0, depth)
    }

    /// Takes the tracker's rows for the next frame; returns the frames that leave the window.
    package mutating func push(frame: Int, time: Double, rows: [TrackedFace], payload: Payload) -> [Frame] {
        for row in rows where row.trackSerial != 0 {
            if let id = row.trackID { ids[row.trackSerial] = id }
            if row.source.isDetection {
                fillGap(of: row.trackSerial, endingWith: row.observation, on: frame, at: time)
                lastDetected[row.trackSerial] = frame
            }
        }
        held.append(Frame(frame: frame, time: time, payload: payload, faces: rows, hidden: []))
        var out: [Frame] = []
        while held.count > depth { out.append(finish(held.removeFirst())) }
        if frame % 256 == 0 { forgetOldTracks(before: frame - 256) }
        return out
    }

    /// Looks for a newly confirmed track on the held frames before its first detection, frame by
    /// frame backwards while it is found: an offline tool can recover the frames a face was in the
    /// picture before the detector first noticed it (too small for a whole-frame pass until a tile
    /// or a keyframe came by). `find` gets a held frame's payload and the box expected there (the
    /// track's first box, moved back at its early speed) and returns the face it finds, if any.
    /// The search stops at the first frame where nothing is found, where the face found is
    /// another confirmed track's (IoU over 0.4), or after a frame for which `startsShot` is true (nothing
    /// before a cut belongs to a track after it). Returns how many frames were recovered.
    @discardableResult
    package mutating func extendBackward(serial: Int, holdingMasksFor maskFrames: Int = 0, startsShot: (Payload) -> Bool,
                                         find: (Payload, Rect) -> FaceObservation?) -> Int {
        var detected: [(held: Int, box: Rect)] = []
        for f in held.indices {
            if let row = held[f].faces.first(where: { $0.trackSerial == serial && $0.source.isDetection }) {
                detected.append((f, row.observation.bounds))
                if detected.count == 2 { break }
            }
        }
        guard let first = detected.first, first.held > 0 else { return 0 }
        // Pixels per frame, from the first two detections (none when there is only one).
        var velocity = (dx: 0.0, dy: 0.0)
        if detected.count == 2 {
            let frames = Double(held[detected[1].held].frame - held[first.held].frame)
            velocity = ((detected[1].box.center.x - first.box.center.x) / frames,
                        (detected[1].box.center.y - first.box.center.y) / frames)
        }
        var box = first.box
        var recovered = 0
        // The held frame on which the detector no longer found the face.
        var unfound: Int?
        for f in stride(from: first.held - 1, through: 0, by: -1) {
            guard !startsShot(held[f + 1].payload), !held[f].faces.contains(where: { $0.trackSerial == serial }) else { break }
            let expected = Rect(centerX: box.center.x - velocity.dx, centerY: box.center.y - velocity.dy,
                                width: box.width, height: box.height)
            guard let found = find(held[f].payload, expected) else {
                unfound = f
                break
            }
            guard !held[f].faces.contains(where: { row in
                (row.trackID ?? ids[row.trackSerial]) != nil && row.observation.bounds.iou(found.bounds) > 0.4
            }) else { break }
            var row = TrackedFace(observation: found, trackID: ids[serial], source: found.source)
            row.trackSerial = serial
            held[f].faces.append(row)
            box = found.bounds
            recovered += 1
        }
        if recovered > 0 { lastDetected[serial] = max(lastDetected[serial] ?? .min, held[first.held].frame) }
        if let unfound, maskFrames > 0 {
            holdMasksBackward(of: serial, from: unfound, box: box, velocity: velocity, frames: maskFrames, startsShot: startsShot)
        }
        return recovered
    }

    /// Masks where a face plausibly was before any detector found it (a face entering at the
    /// picture's edge is only partly in it): hidden `predicted` rows on up to `frames` held frames
    /// from `start` back, along the track's early motion, growing with the frames unseen like a
    /// held mask. Never across a shot boundary; the pipeline drops those wholly outside the picture.
    private mutating func holdMasksBackward(of serial: Int, from start: Int, box: Rect, velocity: (dx: Double, dy: Double),
                                            frames: Int, startsShot: (Payload) -> Bool) {
        guard let nearest = held[start + 1].faces.first(where: { $0.trackSerial == serial }), box.height > 0 else { return }
        let speed = (velocity.dx * velocity.dx + velocity.dy * velocity.dy).squareRoot() / box.height
        var center = box.center
        var unseen = 0
        for f in stride(from: start, through: max(0, start - frames + 1), by: -1) {
            if f < start, startsShot(held[f + 1].payload) { break }
            center = Point(x: center.x - velocity.dx, y: center.y - velocity.dy)
            unseen += 1
            let bounds = Rect(centerX: center.x, centerY: center.y, width: box.width, height: box.height)
            var row = TrackedFace(observation: nearest.observation.moved(to: bounds), trackID: nil, source: .predicted)
            row.trackSerial = serial
            row.unseenFrames = unseen
            row.unseenSpeed = speed
            held[f].hidden.append(row)
        }
    }

    /// Gives track `serial` its ID (a track confirmed after its last row, at the end of the input).
    package mutating func assign(id: Int, to serial: Int) {
        ids[serial] = id
    }

    /// Every frame still held, in order (at the end of the video).
    package mutating func flush() -> [Frame] {
        defer { held.removeAll() }
        return held.map(finish)
    }

    /// Decides a frame's rows as it leaves.
    private func finish(_ frame: Frame) -> Frame {
        var out = frame
        out.faces.removeAll(keepingCapacity: true)
        for var row in frame.faces {
            let id = row.trackSerial == 0 ? nil : row.trackID ?? ids[row.trackSerial]
            let foundAgain = (lastDetected[row.trackSerial] ?? Int.min) > frame.frame
            if let id, row.source.isDetection || foundAgain {
                row.trackID = id
                out.faces.append(row)
            } else {
                out.hidden.append(row)
            }
        }
        // Rows added by `extendBackward` join the others in ID order.
        out.faces.sort { ($0.trackID ?? .max) < ($1.trackID ?? .max) }
        // One row per ID: when re-identification gave a new track the identity of a lost one, a
        // frame may hold both (a look-back row beside the old track's); a detection beats a
        // prediction, then the more confident.
        var index = out.faces.count - 1
        while index > 0 {
            let (a, b) = (out.faces[index - 1], out.faces[index])
            if let id = a.trackID, id == b.trackID {
                let keepFirst = a.source.isDetection != b.source.isDetection ? a.source.isDetection
                                                                           : a.observation.confidence >= b.observation.confidence
                out.hidden.append(out.faces.remove(at: keepFirst ? index : index - 1))
            }
            index -= 1
        }
        return out
    }

    /// Replaces the predicted rows of track `serial` since its last detection in the window with
    /// boxes on the straight line from that detection to `observation` (found on frame `frame`, at
    /// `time` seconds), placed by time (variable frame rate), or by frame number where times do not grow.
    private mutating func fillGap(of serial: Int, endingWith observation: FaceObservation, on frame: Int, at time: Double) {
        var gap: [(held: Int, row: Int)] = []
        var start: (frame: Int, time: Double, observation: FaceObservation)?
        search: for f in held.indices.reversed() {
            for (r, row) in held[f].faces.enumerated() where row.trackSerial == serial {
                if row.source.isDetection {
                    start = (held[f].frame, held[f].time, row.observation)
                    break search
                }
                gap.append((f, r))
            }
        }
        guard let start, frame > start.frame else { return }
        let a = start.observation.bounds, b = observation.bounds
        let byTime = time.isFinite && start.time.isFinite && time > start.time
            && gap.allSatisfy { held[$0.held].time > start.time && held[$0.held].time < time }
        for place in gap {
            let t = byTime ? (held[place.held].time - start.time) / (time - start.time)
                : Double(held[place.held].frame - start.frame) / Double(frame - start.frame)
            let box = Rect(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t,
                           width: a.width + (b.width - a.width) * t, height: a.height + (b.height - a.height) * t)
            // A frame not looked at between two detections (a steady face's crop skipped): its
            // eyes, mouth and nose halfway too. After a miss they keep the prediction's place in
            // the box (measured better on the reference clips' misses).
            var filled = held[place.held].faces[place.row].observation.moved(to: box)
            if gap.count == 1, held[place.held].faces[place.row].cropSkipped {
                filled = filled.withLandmarks(between: start.observation, and: observation, at: t)
            }
            held[place.held].faces[place.row].observation = filled
            held[place.held].faces[place.row].display = held[place.held].faces[place.row].observation
            let since = held[place.held].frame - start.frame
            held[place.held].faces[place.row].unseenFrames = min(since, frame - held[place.held].frame)
            held[place.held].faces[place.row].unseenSpeed = a.center.distance(to: b.center) / Double(frame - start.frame) / a.height
        }
    }

    /// Forgets tracks whose last detection is older than `frame` (memory stays flat).
    private mutating func forgetOldTracks(before frame: Int) {
        let old = lastDetected.filter { $0.value < frame }.keys
        for serial in old {
            lastDetected[serial] = nil
            ids[serial] = nil
        }
    }
}
