import Foundation

/// One line of a `--results` file (JSON Lines): what happened to one input.
public struct ResultRecord: Codable, Sendable, Equatable {
    /// What happened.
    public enum Status: String, Codable, Sendable {
        /// Processed now.
        case done
        /// Its outputs were already up to date.
        case skipped
        /// It could not be processed (see `error`).
        case failed
    }

    /// The input's real path.
    public var path: String
    /// What happened.
    public var status: Status
    /// Frames processed (0 unless done).
    public var frames: Int
    /// Face rows reported.
    public var faces: Int
    /// Confirmed tracks.
    public var tracks: Int
    /// Wall-clock seconds spent on it.
    public var seconds: Double
    /// The one-line error of a failed input, or the read warning of one that ended early.
    public var error: String?

    /// Creates a record.
    public init(path: String, status: Status, frames: Int = 0, faces: Int = 0, tracks: Int = 0, seconds: Double = 0,
                error: String? = nil) {
        self.path = path
        self.status = status
        self.frames = frames
        self.faces = faces
        self.tracks = tracks
        self.seconds = seconds
        self.error = error
    }

    /// The record as one JSON line (no newline), keys sorted.
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
