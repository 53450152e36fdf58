import FaceCore
import Foundation

/// Writes tracked faces in the MOTChallenge text format, one row per face with a track ID:
/// `frame,id,x,y,w,h,conf,-1,-1,-1`, frames counted from 1, boxes in pixels (top-left corner and
/// size) with two decimals. Rows without an ID (tentative tracks) are left out, as evaluation
/// tools expect. The file appears at its path only when `finish()` succeeds.
public final class MOTChallengeWriter {
    private let output: BufferedTextFile

    /// Starts writing to a temporary file beside `path`, refusing a path that names one of `inputs`.
    public init(path: String, inputs: [String] = []) throws {
        output = try BufferedTextFile(path: path, inputs: inputs)
    }

    /// The target path.
    public var path: String { output.path }

    /// Writes the faces of the frame with zero-based index `frameIndex` (written as `frameIndex + 1`).
    /// The measured or predicted box (`observation`) is written, not the smoothed display copy.
    public func write(frameIndex: Int, faces: [TrackedFace]) throws {
        var text = ""
        for face in faces {
            guard let id = face.trackID else { continue }
            text += Self.row(frame: frameIndex + 1, id: id, observation: face.observation)
        }
        if !text.isEmpty { try output.write(text) }
    }

    /// Flushes, closes and renames the file onto its path.
    public func finish() throws {
        try output.finish()
    }

    /// One MOTChallenge line, newline included.
    static func row(frame: Int, id: Int, observation: FaceObservation) -> String {
        let b = observation.bounds
        return "\(frame),\(id),\(fixed(b.x, 2)),\(fixed(b.y, 2)),\(fixed(b.width, 2)),\(fixed(b.height, 2)),"
            + "\(fixed(observation.confidence, 4)),-1,-1,-1\n"
    }

    /// `value` with exactly `digits` decimals (C locale, no "-0.00"); non-finite values print as 0.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "0" }
        let text = String(format: "%.\(digits)f", value)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }
}
