import MediaIO
import Scheduling

/// The reader's shot-boundary test, on the reader's thread, frame by frame in order: samples each
/// decoded frame's colours, holds the frames the detector's look-ahead needs (a third of a second)
/// and hands them on in order, each marked with the boundary it starts, if any, and whether the
/// next frame starts one (so each frame waits for its successor's verdict too).
struct ShotMarker {
    private var detector: ShotBoundaryDetector
    private let sampler = PixelConverter()
    private var sample: [UInt8] = []
    /// Frames waiting for their verdict, oldest first.
    private var held: [FrameJob] = []
    /// The last frame with its verdict in, held until its successor's verdict says whether it ends a shot.
    private var marked: FrameJob?
    /// Boundaries found so far.
    private(set) var count = 0

    init(framesPerSecond: Double?) {
        detector = ShotBoundaryDetector(framesPerSecond: framesPerSecond ?? 25)
    }

    /// Frames held back at most.
    var lookahead: Int { detector.lookahead + 1 }

    /// Takes the next decoded frame; `release` gets the frames whose verdict is in, in order. A
    /// frame that cannot be sampled counts as unchanged (its predecessor's sample is used again).
    mutating func add(_ job: FrameJob, release: (FrameJob) -> Void) {
        if (try? sampler.colourSample(job.frame, columns: ShotBoundaryDetector.columns, rows: ShotBoundaryDetector.rows,
                                      into: &sample)) == nil, sample.isEmpty {
            sample = [UInt8](repeating: 0, count: ShotBoundaryDetector.columns * ShotBoundaryDetector.rows * 3)
        }
        held.append(job)
        if let verdict = detector.push(sample) { hand(verdict, release) }
    }

    /// The input ended: the held frames go out with the verdicts the detector can still give.
    mutating func finish(release: (FrameJob) -> Void) {
        for verdict in detector.finish() { hand(verdict, release) }
        for job in held { hold(job, releasingItsPredecessor: release) }
        held.removeAll()
        if var last = marked {
            last.endsShot = true
            release(last)
            marked = nil
        }
    }

    private mutating func hand(_ verdict: (frame: Int, boundary: ShotBoundary?), _ release: (FrameJob) -> Void) {
        guard !held.isEmpty else { return }
        var job = held.removeFirst()
        if let boundary = verdict.boundary {
            count += 1
            job.boundary = boundary
            // The mixed pictures of a fade or dissolve began about a window before its marked frame.
            if boundary != .cut { job.transitionStart = max(0, job.index - detector.window) }
        }
        hold(job, releasingItsPredecessor: release)
    }

    /// Holds `job`, whose verdict is in, and releases the frame before it, which now knows whether it ends a shot.
    private mutating func hold(_ job: FrameJob, releasingItsPredecessor release: (FrameJob) -> Void) {
        if var previous = marked {
            previous.endsShot = job.boundary != nil
            release(previous)
        }
        marked = job
    }
}
