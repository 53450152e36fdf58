import Detection
import FaceCore
import Scheduling
import Synchronization

/// Parallel stage: runs the detector on what the frame's plan asks for, each pass on a picture
/// scaled straight from the decoded frame (`FrameSampler`: no full-resolution BGRA copy), merges
/// the passes' faces, and runs the analyzer (which does need the upright frame in BGRA), on a
/// free lane; then back in order.
///
/// Adaptive detection plans a frame in two parts (`DetectionPlanner`, `CropPlanner`): its keyframe
/// and tile start on a free lane as soon as the frame is decoded, its crops once the tracks they
/// follow are known; the part that finishes last merges both.
final class AnalysisStage: Sendable {
    private let pool: LanePool<Lane>
    private let state: RunState
    private let inOrder: Reorderer<FrameJob>
    private let every: Int
    /// Added to a frame's place before `every` counts.
    private let phase: Int
    private let filter: DetectionFilter
    private let clock: StageClock
    private let imagePool: ImagePool
    /// Passes run, by kind, and crops or tiles that failed and fell back to a whole-frame pass.
    private let counts = Mutex((passes: DetectionPassCounts(), fallbacks: 0))
    /// When a whole-frame pass calls for a close-up pass, and how its picture is sized; `nil`
    /// never runs one (a detector that gives no weak candidates never does either).
    private let closeUp: (rule: CloseUpRule, geometry: DetectionGeometry)?

    /// Detects on every `every`-th frame (counting from `-phase`: a segment counts by its frames'
    /// numbers in the whole video), keeps what `filter` keeps, hands frames to `next` in order.
    init(lanes: LanePool<Lane>, every: Int, filter: DetectionFilter, pool: ImagePool, state: RunState, clock: StageClock,
         phase: Int = 0, closeUp: (rule: CloseUpRule, geometry: DetectionGeometry)? = nil, next: @escaping FrameHandoff) {
        self.pool = lanes
        self.closeUp = closeUp
        self.state = state
        self.phase = phase
        inOrder = Reorderer(emit: next)
        self.clock = clock
        self.every = max(1, every)
        self.filter = filter
        imagePool = pool
    }

    /// A frame planned at once (full detection, or no detection on this frame): all on one lane.
    func accept(_ job: FrameJob) {
        var job = job
        let detects = (job.index + phase) % every == 0
        job.found = FoundFaces(parts: 1)
        run(job, passes: detects ? (job.plan ?? Self.nativePlan(job)).passes : nil)
    }

    /// Adaptive, from the reader: starts the passes planned so far (keyframe, tile), if any, and
    /// gives `job` the place where its parts meet; the rest comes with `acceptRest`.
    func acceptAhead(_ job: inout FrameJob) {
        let passes = job.plan?.passes ?? []
        job.found = FoundFaces(parts: passes.isEmpty ? 1 : 2)
        if !passes.isEmpty { run(job, passes: passes) }
    }

    /// Adaptive, from the crop planner, with the plan complete: runs the passes `acceptAhead` did
    /// not start (crops, and a whole-frame pass while a track is uncertain).
    func acceptRest(_ job: FrameJob, passes: [ScheduledPass]) {
        run(job, passes: passes, completesPlan: true)
    }

    /// Adds the passes run, the fallbacks and the lanes' invalid detections to `summary`.
    func summarize(into summary: inout ProcessingSummary) {
        (summary.detectionPasses, summary.fallbacks) = counts.withLock { $0 }
        summary.invalidDetections = pool.sum(\.invalidDetections)
    }

    /// Runs `passes` (nil: no detection on this frame) on a free lane; the frame's last part
    /// merges every part's faces, analyses them and hands the frame on in order.
    private func run(_ job: FrameJob, passes: [ScheduledPass]?, completesPlan: Bool = false) {
        pool.submit(item: job.index) { [self] lane in
            var part = FoundFaces.Part()
            if let passes, lane.detector != nil { state.attempt { part = try detect(passes, on: job, lane: lane) } }
            if completesPlan { part.completePlan = job.plan }
            guard let all = job.found!.add(part) else { return }
            var job = job
            // Whichever part finishes last goes on with the whole plan.
            job.plan = all.completePlan ?? job.plan
            state.attempt { try finish(&job, all, lane: &lane) }
            inOrder.submit(job, index: job.index)
        }
    }

    /// Runs each pass. A crop or tile the detector fails on does not lose the frame: `finish`
    /// looks at the whole frame instead (counted as a fallback).
    private func detect(_ passes: [ScheduledPass], on job: FrameJob, lane: Lane) throws -> FoundFaces.Part {
        var part = FoundFaces.Part()
        part.detected = true
        let crops = passes.filter(\.kind.isCrop)
        let together = crops.count > 1
        if together { detectTogether(crops, on: job, lane: lane, into: &part) }
        for pass in passes where !(together && pass.kind.isCrop) {
            do {
                if pass.kind == .full, let closeUp, let detector = lane.detector as? WeakCandidateDetector {
                    try detectWhole(pass, closeUp: closeUp, detector: detector, on: job, lane: lane, into: &part)
                    continue
                }
                part.found.append(try detect(pass, on: job, lane: lane))
                switch pass.kind {
                case .full: part.counts.full += 1
                case .crop: part.counts.crops += 1
                case .tile: part.counts.tiles += 1
                case .closeUp: part.counts.closeUp += 1
                }
            } catch where pass.kind != .full {
                part.failed = true
            }
        }
        return part
    }

    /// A whole-frame pass that also reads the detector's weak candidates and, when they show a face
    /// too large for the picture (`CloseUpRule`), runs the close-up pass on the same frame.
    private func detectWhole(_ pass: ScheduledPass, closeUp: (rule: CloseUpRule, geometry: DetectionGeometry),
                             detector: WeakCandidateDetector, on job: FrameJob, lane: Lane, into part: inout FoundFaces.Part) throws {
        let (found, sampled) = try detect(pass, on: job, lane: lane) { try detector.detect(in: $0, weakFrom: closeUp.rule.floor) }
        part.found.append(FoundFaces.Found(faces: found.faces, pass: sampled))
        part.counts.full += 1
        // Shares and the border are the same in the picture's pixels as in the frame's.
        let sx = Double(pass.pictureWidth) / pass.region.width, sy = Double(pass.pictureHeight) / pass.region.height
        let tracked = (job.plan?.trackedBoxes ?? []).map { Rect(x: $0.x * sx, y: $0.y * sy, width: $0.width * sx, height: $0.height * sy) }
        guard closeUp.rule.wantsCloseUp(found.faces + found.weak, width: pass.pictureWidth, height: pass.pictureHeight,
                                        tracked: tracked) else { return }
        let size = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
        part.found.append(try detect(closeUp.rule.pass(width: size.width, height: size.height, geometry: closeUp.geometry),
                                     on: job, lane: lane))
        part.counts.closeUp += 1
    }

    /// A frame's crops as one call to the detector, which runs pictures of one size as a batch
    /// where that pays (CenterFace: its weights are read once for all the crops instead of once
    /// per crop), with the same faces as one crop at a time.
    private func detectTogether(_ crops: [ScheduledPass], on job: FrameJob, lane: Lane, into part: inout FoundFaces.Part) {
        var pictures: [BGRAImage] = [], sampled: [ScheduledPass] = []
        defer { for picture in pictures { imagePool.release(picture) } }
        for pass in crops {
            guard let (picture, done) = try? sample(pass, on: job, lane: lane) else {
                part.failed = true
                continue
            }
            pictures.append(picture)
            sampled.append(done)
        }
        guard !pictures.isEmpty,
              let found = try? clock.time(.detect, { try clock.timePass(.crops) { try lane.detector!.detect(in: pictures) } }) else {
            part.failed = part.failed || !pictures.isEmpty
            return
        }
        for (faces, pass) in zip(found, sampled) {
            part.found.append(FoundFaces.Found(faces: faces, pass: pass))
            part.counts.crops += 1
        }
    }

    /// Merges the parts' faces (whole-frame pass first, then crops, then tiles: the same order
    /// whichever part finished first), filters and analyses them.
    private func finish(_ job: inout FrameJob, _ all: FoundFaces.Part, lane: inout Lane) throws {
        guard all.detected, let detector = lane.detector else { return }
        let plan = job.plan ?? Self.nativePlan(job)
        var passes = all.counts
        var fallbacks = 0
        var merger = DetectionMerger(width: plan.frameWidth, height: plan.frameHeight)
        for found in all.found.sorted(by: { $0.pass.kind.mergeRank < $1.pass.kind.mergeRank }) {
            merger.add(found.faces, from: found.pass)
        }
        if all.failed && passes.full == 0, let whole = plan.wholeFrame {
            let found = try detect(whole, on: job, lane: lane)
            merger.add(found.faces, from: found.pass)
            passes.full += 1
            fallbacks += 1
        }
        counts.withLock {
            $0.passes.add(passes)
            $0.fallbacks += fallbacks
        }
        var faces = merger.merged()
        lane.invalidDetections += try filter.keep(&faces, frame: job.number, detector: detector.name)
        if let analyzer = lane.analyzer {
            let converter = lane.converter
            let upright = try clock.time(.convert) { try job.uprightImage(converter: converter, pool: imagePool) }
            try clock.time(.attributes) { try analyzer.analyze(&faces, in: upright) }
        }
        job.detections = faces
    }

    /// Without a planner (parts built by hand): the whole frame at its own size.
    private static func nativePlan(_ job: FrameJob) -> FramePlan {
        let size = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
        return FramePlan.wholeFrame(width: size.width, height: size.height, pictureWidth: size.width, pictureHeight: size.height,
                                    scale: 1)
    }

    /// One pass: its region scaled straight from the decoded frame, then the detector. The pass
    /// comes back with the region actually sampled (snapped to whole, chroma-aligned pixels).
    private func detect(_ pass: ScheduledPass, on job: FrameJob, lane: Lane) throws -> FoundFaces.Found {
        let (faces, sampled) = try detect(pass, on: job, lane: lane) { try lane.detector!.detect(in: $0) }
        return FoundFaces.Found(faces: faces, pass: sampled)
    }

    /// `run` on the pass's picture, timed as detection of the pass's kind, and the pass with the
    /// region actually sampled; the picture goes back to the pool whatever `run` does.
    private func detect<Found>(_ pass: ScheduledPass, on job: FrameJob, lane: Lane,
                               with run: (BGRAImage) throws -> Found) throws -> (found: Found, pass: ScheduledPass) {
        let (picture, sampled) = try sample(pass, on: job, lane: lane)
        defer { imagePool.release(picture) }
        let found = try clock.time(.detect) { try clock.timePass(RunStatistics.PassKind(pass.kind)) { try run(picture) } }
        return (found, sampled)
    }

    /// The pass's picture from the pool, filled from the decoded frame, and the pass with the
    /// region actually sampled; the caller releases the picture (a failed sample releases it here).
    private func sample(_ pass: ScheduledPass, on job: FrameJob, lane: Lane) throws -> (picture: BGRAImage, pass: ScheduledPass) {
        let size = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
        if let inside = pass.insideFrame(width: size.width, height: size.height) {
            return try samplePadded(pass, inside: inside, on: job, lane: lane)
        }
        let picture = imagePool.acquire(width: pass.pictureWidth, height: pass.pictureHeight)
        var sampled = pass
        do {
            sampled.region = try clock.time(.convert) {
                try lane.sampler.sample(job.frame, orientation: job.orientation, region: pass.region, into: picture)
            }
        } catch {
            imagePool.release(picture)
            throw error
        }
        return (picture, sampled)
    }
}

extension AnalysisStage {
    /// A pass whose region reaches beyond the frame (a close-up): the frame's part scaled into its
    /// place in the picture, the rest black; the pass comes back with the region the picture shows.
    private func samplePadded(_ pass: ScheduledPass, inside: (region: Rect, picture: PixelRect), on job: FrameJob,
                              lane: Lane) throws -> (picture: BGRAImage, pass: ScheduledPass) {
        let picture = imagePool.acquire(width: pass.pictureWidth, height: pass.pictureHeight)
        let part = imagePool.acquire(width: inside.picture.width, height: inside.picture.height)
        defer { imagePool.release(part) }
        var sampled = pass
        do {
            let region = try clock.time(.convert) {
                try lane.sampler.sample(job.frame, orientation: job.orientation, region: inside.region, into: part)
            }
            sampled.region = pass.paddedRegion(sampled: region, picture: inside.picture)
        } catch {
            imagePool.release(picture)
            throw error
        }
        picture.fill(b: 0, g: 0, r: 0)
        picture.paste(part, x: inside.picture.x0, y: inside.picture.y0)
        return (picture, sampled)
    }
}

/// What one frame's detector passes found, gathered from the parts of its plan that ran on
/// different lanes; the last part to finish gets them all.
final class FoundFaces: Sendable {
    struct Found: Sendable {
        var faces: [FaceObservation]
        /// The pass, with the region actually sampled.
        var pass: ScheduledPass
    }

    struct Part: Sendable {
        var found: [Found] = []
        var counts = DetectionPassCounts()
        /// A crop or tile failed.
        var failed = false
        /// The detector ran (false for a frame `--detect-every` skips).
        var detected = false
        /// The frame's plan with its crops, from the part `acceptRest` started.
        var completePlan: FramePlan?

        mutating func add(_ other: Part) {
            found += other.found
            counts.add(other.counts)
            failed = failed || other.failed
            detected = detected || other.detected
            completePlan = other.completePlan ?? completePlan
        }
    }

    private let state: Mutex<(gathered: Part, partsLeft: Int)>

    init(parts: Int) {
        state = Mutex((Part(), parts))
    }

    /// Adds one part's results; returns everything when it was the last part.
    func add(_ part: Part) -> Part? {
        state.withLock { state in
            state.gathered.add(part)
            state.partsLeft -= 1
            return state.partsLeft == 0 ? state.gathered : nil
        }
    }
}

private extension ScheduledPass.Kind {
    var isCrop: Bool {
        if case .crop = self { return true }
        return false
    }

    /// Passes merge whole-frame first, then the close-up, then crops, then tiles.
    var mergeRank: Int {
        switch self {
        case .full: return 0
        case .closeUp: return 1
        case .crop: return 2
        case .tile: return 3
        }
    }
}

extension RunStatistics.PassKind {
    init(_ kind: ScheduledPass.Kind) {
        switch kind {
        case .full: self = .wholeFrame
        case .crop: self = .crops
        case .tile: self = .tiles
        case .closeUp: self = .closeUp
        }
    }
}

extension DetectionPassCounts {
    /// How many passes of `kind` ran.
    func count(of kind: RunStatistics.PassKind) -> Int {
        switch kind {
        case .wholeFrame: return full
        case .crops: return crops
        case .tiles: return tiles
        case .lookBack: return lookBack
        case .closeUp: return closeUp
        }
    }

    mutating func add(_ other: DetectionPassCounts) {
        full += other.full
        crops += other.crops
        tiles += other.tiles
        lookBack += other.lookBack
        closeUp += other.closeUp
    }
}
