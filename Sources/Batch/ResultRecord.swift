import FaceCore
import Foundation
import Pipeline

/// One line of a `--results` file (JSON Lines): what happened to one input.
package struct ResultRecord: Codable, Sendable, Equatable {
    /// What happened.
    package enum Status: String, Codable, Sendable {
        /// Processed now.
        case done
        /// Its outputs were already up to date.
        case skipped
        /// It could not be processed (see `error`).
        case failed
    }

    /// The input's real path.
    package var path: String
    /// What happened.
    package var status: Status
    /// Frames processed (0 unless done).
    package var frames: Int
    /// Face rows reported.
    package var faces: Int
    /// Confirmed tracks.
    package var tracks: Int
    /// Wall-clock seconds spent on it.
    package var seconds: Double
    /// The one-line error of a failed input, or the read warning of one that ended early.
    package var error: String?
    /// Seconds of video read (the last frame's time plus one frame), when done.
    package var duration: Double?
    /// The report page written for it (`batch --report`).
    package var report: String?
    /// CPU time by stage and peak memory of a processed input (`--stats`' numbers; every done record has them).
    package var stats: RunStatistics?

    /// Creates a record.
    package init(path: String, status: Status, frames: Int = 0, faces: Int = 0, tracks: Int = 0, seconds: Double = 0,
                error: String? = nil, duration: Double? = nil, report: String? = nil) {
        self.path = path
        self.status = status
        self.frames = frames
        self.faces = faces
        self.tracks = tracks
        self.seconds = seconds
        self.error = error
        self.duration = duration
        self.report = report
    }

    /// The record as one JSON line (no newline), keys sorted.
    package func jsonLine() -> String {
        (try? JSONOutput.string(self)) ?? "{}"
    }
}
