import Foundation

/// What a finished (or stopped) run did.
public struct ProcessingSummary: Sendable {
    /// Frames decoded and passed through every stage.
    public var frames = 0
    /// Face rows reported (detected and predicted).
    public var faces = 0
    /// Confirmed tracks (0 without a tracker).
    public var tracks = 0
    /// Frames covered by the longest track.
    public var longestTrack = 0
    /// Wall-clock seconds.
    public var seconds = 0.0
    /// Packets the decoder rejected as damaged (skipped).
    public var damagedPackets = 0
    /// Frames the decoder marked as corrupt (kept, with concealed errors).
    public var corruptFrames = 0
    /// Detections dropped for NaN, infinite or non-positive boxes.
    public var invalidDetections = 0
    /// Set when the input ended early or could not be read to its end.
    public var readError: String?
    /// True when the run was stopped through its `StopSignal` (SIGINT).
    public var interrupted = false
    /// Presentation time of the last frame done, in seconds.
    public var lastTime: Double?
    /// Detector passes run, by kind.
    public var detectionPasses = DetectionPassCounts()
    /// Crops or tiles the detector failed on, replaced by a whole-frame pass.
    public var fallbacks = 0
    /// Shot cuts found (adaptive detection): every track ends at one.
    public var shotCuts = 0
    /// The frames the shot cuts were found on, in order (a segment's record keeps them).
    package var shotCutFrames: [Int] = []
    /// CPU time by stage and peak memory (video runs).
    public var statistics: RunStatistics?
    /// Faces embedded for re-identification and known people (a few per track).
    public var embeddedFaces = 0

    /// Creates an empty summary.
    public init() {}

    /// Frames per second over the wall time.
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
}

/// How many detector passes of each kind a run made (`--detection adaptive` mixes them).
public struct DetectionPassCounts: Sendable, Equatable {
    /// Whole-frame passes.
    public var full = 0
    /// Crops around tracked faces.
    public var crops = 0
    /// Full-resolution tiles.
    public var tiles = 0
    /// Crops on held frames, looking back for a newly confirmed track's first frames.
    public var lookBack = 0
    /// Close-up passes: the frame shrunk into a larger black canvas, run when a whole-frame pass
    /// saw a face too large for the picture.
    public var closeUp = 0

    /// Creates counts.
    public init(full: Int = 0, crops: Int = 0, tiles: Int = 0, lookBack: Int = 0, closeUp: Int = 0) {
        self.full = full
        self.crops = crops
        self.tiles = tiles
        self.lookBack = lookBack
        self.closeUp = closeUp
    }
}

/// Where a run's CPU time went, stage by stage, and its peak memory (`--stats`).
public struct RunStatistics: Sendable, Equatable, Codable {
    /// CPU time of one stage.
    public struct Stage: Sendable, Equatable, Codable {
        /// The stage: demux+decode, convert, detect, attributes, track+write, render, encode, mux,
        /// or "codec threads" (FFmpeg's own decoder and encoder threads, and anything else not
        /// timed by a stage: the process's CPU time less the stages').
        public var name: String
        /// CPU seconds, all threads.
        public var cpuSeconds: Double
    }

    /// The stages in pipeline order, then the codec threads.
    public var stages: [Stage]
    /// CPU seconds of the whole process during the run.
    public var cpuSeconds: Double
    /// Peak resident memory of the process so far, in bytes (in a batch, the largest input so far).
    public var peakMemoryBytes: Int
    /// The detector's passes by kind, with the CPU time the detector spent on them (part of
    /// `detect`; the sampling that scales each pass's picture counts as convert). Absent in
    /// results written before it was added.
    public var passes: [Passes]?

    /// A kind of detector pass (`--detection adaptive` mixes them).
    public enum PassKind: Int, CaseIterable, Sendable {
        case wholeFrame, crops, tiles, lookBack, closeUp

        /// As `--stats` and the results JSON name it.
        public var name: String {
            switch self {
            case .wholeFrame: return "whole-frame"
            case .crops: return "crops"
            case .tiles: return "tiles"
            case .lookBack: return "look-back"
            case .closeUp: return "close-up"
            }
        }
    }

    /// How many passes of one kind ran and the detector's CPU time on them.
    public struct Passes: Sendable, Equatable, Codable {
        /// whole-frame, crops, tiles, look-back or close-up.
        public var kind: String
        /// Passes run, fallbacks to a whole frame included.
        public var count: Int
        /// The detector's CPU seconds on them, all lanes.
        public var cpuSeconds: Double
    }

    /// What the run held, part by part, from its own counters (`MemoryPart`); the codec's buffers,
    /// the libraries and the allocator's slack are the peak less these. `nil` when not counted.
    public var memory: [MemoryPart]?

    /// One part of what a run holds.
    public struct MemoryPart: Sendable, Equatable, Codable {
        /// What holds the memory: "frames in flight", "BGRA pictures", "network arenas", ...
        public var name: String
        /// Bytes at the part's peak.
        public var bytes: Int
        /// How the bytes come about (e.g. "40 frames x 1.32 MiB: ...").
        public var detail: String
    }

    /// A short table: one line per stage with its CPU seconds and share, frames per second and
    /// peak memory on the first line.
    public func table(frames: Int, seconds: Double) -> String {
        var lines = [String(format: "stats: %d frames in %.2f s (%.1f fps), CPU %.2f s (%.2f cores), peak memory %.0f MiB",
                            frames, seconds, seconds > 0 ? Double(frames) / seconds : 0, cpuSeconds,
                            seconds > 0 ? cpuSeconds / seconds : 0, Double(peakMemoryBytes) / 1_048_576)]
        let total = max(cpuSeconds, stages.reduce(0) { $0 + $1.cpuSeconds }, 1e-9)
        for stage in stages {
            let name = stage.name.padding(toLength: 14, withPad: " ", startingAt: 0)
            lines.append("  " + name + String(format: " %8.2f s %6.1f%%", stage.cpuSeconds, 100 * stage.cpuSeconds / total))
            if stage.name == RunStage.detect.name { lines += passLines(detectSeconds: stage.cpuSeconds) }
        }
        if let memory {
            lines.append(String(format: "memory: peak %.0f MiB", Double(peakMemoryBytes) / 1_048_576))
            for part in memory + [MemoryPart(name: "codecs, libraries, rest", bytes: max(0, peakMemoryBytes - memory.reduce(0) { $0 + $1.bytes }),
                                             detail: "the peak less the parts above")] {
                let name = part.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                lines.append("  " + name + String(format: " %7.1f MiB  ", Double(part.bytes) / 1_048_576) + part.detail)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Under the detect line: each kind of pass that ran, its count, its CPU time and its share of
    /// detect, so the detection budget can be read off a run.
    private func passLines(detectSeconds: Double) -> [String] {
        (passes ?? []).filter { $0.count > 0 }.map { kind in
            let name = kind.kind.padding(toLength: 12, withPad: " ", startingAt: 0)
            let share = detectSeconds > 0 ? 100 * kind.cpuSeconds / detectSeconds : 0
            return "    " + name + String(format: " %8.2f s %6.1f%% of detect, %d passes, %.2f ms each", kind.cpuSeconds, share, kind.count,
                                          1000 * kind.cpuSeconds / Double(kind.count))
        }
    }
}
