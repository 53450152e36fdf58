import Dispatch
import FaceCore
import MediaIO
import Scheduling
import Tracking

/// The reader's side of detection planning, on the reader's thread, frame by frame in order.
/// Adaptive: decides each frame's keyframe and tile (`planAhead`) from
/// the tracks as the tracking stage forecast them after an earlier frame (`ForecastBoard.aheadSource`),
/// so those expensive passes can start long before the frame is tracked; `CropPlanner` adds the
/// crops later, from fresher forecasts. Full (no board): the whole frame at the detector's base
/// size. Either way, a shot cut ends every track.
struct DetectionPlanner {
    private let geometry: DetectionGeometry
    private let configuration: SchedulerConfiguration
    private let board: ForecastBoard?
    private var scheduler: DetectionScheduler?
    /// The last frame that started a shot, by its place in the run (`FrameJob.index`, as the board
    /// counts): forecasts made before it say nothing about it; the first frame counts as one.
    private var lastCut: Int?
    /// The frames shot boundaries were marked on, in order, by their numbers in the whole video (a
    /// segment's stitch needs them).
    private(set) var cutFrames: [Int] = []

    init(geometry: DetectionGeometry, configuration: SchedulerConfiguration, board: ForecastBoard?) {
        self.geometry = geometry
        self.configuration = configuration
        self.board = board
    }

    /// Adds the frames of the shot boundaries to `summary` (their count comes from `ShotMarker`).
    func summarize(into summary: inout ProcessingSummary) {
        summary.shotCutFrames = cutFrames
    }

    /// The plan for `job` (adaptive: its keyframe and tile; the crops come later); `cut` says a
    /// shot boundary came since the last planned frame (`ShotMarker`); `nil` when the run failed
    /// while waiting for the forecasts.
    mutating func plan(for job: FrameJob, cut: Bool, failed: () -> Bool) throws -> FramePlan? {
        let upright = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
        if cut || lastCut == nil {
            lastCut = job.index
            if cut { cutFrames.append(job.number) }
        }
        let lastCut = self.lastCut ?? job.index
        // Full detection looks at the whole frame; a cut still ends every track.
        guard let board else {
            var plan = FramePlan.wholeFrame(width: upright.width, height: upright.height, geometry: geometry)
            plan.isCut = cut
            return plan
        }
        if scheduler == nil {
            scheduler = DetectionScheduler(width: upright.width, height: upright.height, geometry: geometry,
                                           configuration: configuration)
        }
        // No frame of this shot can be waited for yet: the scheduler looks at the whole frame.
        var forecasts: [TrackForecast] = []
        let source = board.aheadSource(for: job.index, lastCut: lastCut)
        if let source {
            guard let found = board.forecasts(for: job.index, from: source, gaveUp: failed) else { return nil }
            forecasts = found
        }
        var plan = scheduler!.planAhead(cut: cut, forecasts: forecasts, stale: source == nil, frame: job.number)
        plan.shotStart = lastCut
        plan.endsShot = job.endsShot
        return plan
    }
}

/// The other half of adaptive planning, on its own serial queue, frame by frame in order: adds
/// each frame's crops (and a whole-frame pass while a track is uncertain) from the tracks as they
/// stood `board.lanes` frames earlier, the freshest forecasts that keep every lane busy.
struct CropPlanner {
    private let geometry: DetectionGeometry
    private let configuration: SchedulerConfiguration
    private let board: ForecastBoard
    /// Its own copy: only the crop half's state is used here.
    private var scheduler: DetectionScheduler?

    init(geometry: DetectionGeometry, configuration: SchedulerConfiguration, board: ForecastBoard) {
        self.geometry = geometry
        self.configuration = configuration
        self.board = board
    }

    /// Completes `plan`, made by `DetectionPlanner` for `job`; false when the run failed while
    /// waiting for the forecasts.
    mutating func addCrops(to plan: inout FramePlan, of job: FrameJob, failed: () -> Bool) -> Bool {
        if scheduler == nil {
            scheduler = DetectionScheduler(width: plan.frameWidth, height: plan.frameHeight, geometry: geometry,
                                           configuration: configuration)
        }
        var forecasts: [TrackForecast] = []
        if let source = board.freshSource(for: job.index, lastCut: plan.shotStart) {
            guard let found = board.forecasts(for: job.index, from: source, gaveUp: failed) else { return false }
            forecasts = found
        }
        scheduler!.addCrops(to: &plan, forecasts: forecasts)
        return true
    }
}

/// Runs the `CropPlanner` on its own serial queue, so the reader can go on decoding and starting
/// keyframes while a frame's crops wait for the tracks they follow.
final class CropPlanning: Sendable {
    private let planner: QueueBound<CropPlanner>
    private let state: RunState
    private let clock: StageClock

    init(geometry: DetectionGeometry, configuration: SchedulerConfiguration, board: ForecastBoard, state: RunState,
         clock: StageClock) {
        planner = QueueBound(CropPlanner(geometry: geometry, configuration: configuration, board: board),
                             queue: DispatchQueue(label: "facetrack.crops"))
        self.state = state
        self.clock = clock
    }

    /// Completes `job`'s plan (made by `DetectionPlanner`, whose passes `analyse.acceptAhead`
    /// started) and hands the passes added to `analyse`.
    func plan(_ job: FrameJob, then analyse: AnalysisStage) {
        planner.async { [state, clock] planner in
            var job = job
            var added: [ScheduledPass] = []
            if let ahead = job.plan {
                var plan = ahead
                state.attempt {
                    let complete = clock.time(.detect) { planner.addCrops(to: &plan, of: job, failed: { state.isFailed }) }
                    guard complete else { return }
                    added = plan.passes.filter { !ahead.passes.contains($0) }
                    job.plan = plan
                }
            }
            analyse.acceptRest(job, passes: added)
        }
    }
}
