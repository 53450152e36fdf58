import FaceCore
import MediaIO
import Scheduling
import Tracking

/// The reader's side of detection planning, on the reader's thread, frame by frame in order.
/// Adaptive: tests each frame for a shot cut and asks the scheduler what to look at, from the
/// tracks as the tracking stage forecast them `board.lag` frames earlier. Full (no board): the
/// whole frame at the detector's base size.
struct DetectionPlanner {
    private let geometry: DetectionGeometry
    private let configuration: SchedulerConfiguration
    private let board: ForecastBoard?
    private var scheduler: DetectionScheduler?
    private var cuts = SceneCutDetector()
    private let sampler = PixelConverter()
    private var sample: [UInt8] = []
    /// The last frame that started a shot (forecasts made before it say nothing about it); the
    /// first frame counts as one.
    private var lastCut = 0
    /// Cuts found so far.
    private(set) var cutCount = 0

    init(geometry: DetectionGeometry, configuration: SchedulerConfiguration, board: ForecastBoard?) {
        self.geometry = geometry
        self.configuration = configuration
        self.board = board
    }

    /// The plan for `job`; `nil` when the run failed while waiting for the forecasts.
    mutating func plan(for job: FrameJob, failed: () -> Bool) throws -> FramePlan? {
        let upright = job.orientation.uprightSize(width: job.frame.width, height: job.frame.height)
        guard let board else { return FramePlan.wholeFrame(width: upright.width, height: upright.height, geometry: geometry) }
        if scheduler == nil {
            scheduler = DetectionScheduler(width: upright.width, height: upright.height, geometry: geometry,
                                           configuration: configuration)
        }
        try sampler.lumaSample(job.frame, columns: SceneCutDetector.columns, rows: SceneCutDetector.rows, into: &sample)
        let cut = cuts.isCut(sample: sample)
        if cut {
            lastCut = job.index
            cutCount += 1
        }
        guard let forecasts = board.forecasts(for: job.index, gaveUp: failed) else { return nil }
        // Forecasts made before the last cut are of the previous shot; the first frames have none.
        let stale = job.index - board.lag < lastCut
        var plan = scheduler!.plan(cut: cut, forecasts: stale ? [] : forecasts, stale: stale)
        plan.isCut = cut
        return plan
    }
}
