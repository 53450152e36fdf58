/// A file `batch` writes per input.
package enum OutputKind: String, Sendable, CaseIterable {
    /// The overlaid copy: NAME.mp4 for videos, NAME.<same extension> for still images.
    case video
    /// The per-frame face tracks: NAME.csv.
    case csv
    /// MOTChallenge text: NAME.mot.txt.
    case mot
    /// The JSON list of tracks: NAME.tracks.json.
    case tracks
    /// The face-mesh points of every detected face: NAME.landmarks.csv.
    case landmarks
    /// The HTML report page: NAME.report.html (`batch --report`).
    case report

    /// Parses a comma-separated list such as `video,csv` (repeats kept once).
    package static func parseList(_ text: String) throws -> [OutputKind] {
        var kinds: [OutputKind] = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let kind = OutputKind(rawValue: word) else { throw BatchError.badOutputs(text) }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { throw BatchError.badOutputs(text) }
        return kinds
    }
}

import Foundation
