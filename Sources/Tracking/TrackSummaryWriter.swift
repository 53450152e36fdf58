import FaceCore
import Foundation

/// Writes a `TrackingSummary` as JSON (`--tracks-summary FILE`): pretty-printed, keys sorted,
/// through a temporary file beside the target that is renamed into place.
public enum TrackSummaryWriter {
    /// Writes `summary` to `path`, replacing any previous file only on success.
    public static func write(_ summary: TrackingSummary, to path: String, inputs: [String] = []) throws {
        let text: String
        do {
            text = try JSONOutput.string(summary, layout: .pretty, snakeCaseKeys: true)  // like the CSV columns
        } catch {
            throw TrackOutputError.cannotEncode(path: path, reason: "\(error)")
        }
        let output = try BufferedTextFile(path: path, inputs: inputs)
        try output.write(text + "\n")
        try output.finish()
    }
}
