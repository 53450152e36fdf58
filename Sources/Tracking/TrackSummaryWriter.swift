import FaceCore
import Foundation

/// Writes a `TrackingSummary` as JSON (`--tracks-summary FILE`): pretty-printed, keys sorted,
/// through a temporary file beside the target that is renamed into place.
public enum TrackSummaryWriter {
    /// Writes `summary` to `path`, replacing any previous file only on success.
    public static func write(_ summary: TrackingSummary, to path: String, inputs: [String] = []) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase  // like the CSV columns
        let data: Data
        do {
            data = try encoder.encode(summary)
        } catch {
            throw TrackOutputError.cannotEncode(path: path, reason: "\(error)")
        }
        let output = try BufferedTextFile(path: path, inputs: inputs)
        try output.write(String(decoding: data, as: UTF8.self) + "\n")
        try output.finish()
    }
}
