import FaceCore
import Foundation

/// A review's decisions about the tracks of one tracks file (the edits file the report page
/// downloads; `docs/edits.md` states the schema): an ordered list of edits, each naming a track
/// by its ID as it stands after the edits before it.
///
/// ```json
/// {"format": "facetrack-edits", "version": 1, "tracks": "clip.csv",
///  "edits": [{"op": "drop", "track": 3}, {"op": "keep", "track": 1}, {"op": "mask", "track": 2},
///            {"op": "rename", "track": 1, "person": "Ana"},
///            {"op": "split", "track": 2, "frame": 120, "new_track": 9}, {"op": "join", "track": 4, "into": 1}]}
/// ```
package struct TrackEdits: Sendable, Equatable {
    /// One decision.
    package enum Edit: Sendable, Equatable {
        /// A false face: its rows go (not drawn, not masked).
        case drop(track: Int)
        /// Never anonymised ("keep visible"): the `mask` column says `keep`.
        case keep(track: Int)
        /// Always anonymised: the `mask` column says `mask`.
        case mask(track: Int)
        /// Clears a `keep` or `mask` choice.
        case unmark(track: Int)
        /// Sets the `person` column (an empty name clears it).
        case rename(track: Int, person: String)
        /// The track's rows from `frame` on become track `newTrack` (an unused ID).
        case split(track: Int, frame: Int, newTrack: Int)
        /// Track `track`'s rows join track `into` (the two never share a frame).
        case join(track: Int, into: Int)
    }

    /// The file the edits came from, for errors.
    package var path: String
    /// The edits, applied in order.
    package var edits: [Edit]

    package init(path: String = "<edits>", edits: [Edit]) {
        self.path = path
        self.edits = edits
    }

    /// Reads an edits file; every error is one line naming the file (and the edit, counted from 1).
    package init(path: String) throws {
        let data: Data
        do {
            data = try FileBytes.read(path)
        } catch let error as FileReadError {
            throw RenderError(path: path, reason: "cannot read (\(error.reason))")
        }
        try self.init(data: data, path: path)
    }

    package init(data: Data, path: String) throws {
        self.path = path
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw RenderError(path: path, reason: "not JSON (an edits file is {\"format\": \"facetrack-edits\", \"version\": 1, \"edits\": [...]})")
        }
        guard let top = object as? [String: Any], top["format"] as? String == "facetrack-edits" else {
            throw RenderError(path: path, reason: "not an edits file: expected an object with \"format\": \"facetrack-edits\"")
        }
        guard let version = top["version"] as? Int, version == 1 else {
            throw RenderError(path: path, reason: "version \(top["version"].map { "\($0)" } ?? "missing"): this facetrack reads version 1")
        }
        guard let list = top["edits"] as? [Any] else { throw RenderError(path: path, reason: "\"edits\" is missing or not a list") }
        edits = try list.enumerated().map { index, item in try Self.edit(item, number: index + 1, path: path) }
    }

    private static func edit(_ item: Any, number: Int, path: String) throws -> Edit {
        func fail(_ reason: String) -> RenderError { RenderError(path: path, reason: "edit \(number): \(reason)") }
        guard let object = item as? [String: Any], let op = object["op"] as? String else {
            throw fail("expected an object with \"op\"")
        }
        func int(_ key: String) throws -> Int {
            guard let value = (object[key] as? NSNumber)?.doubleValue, value.rounded() == value, value >= 0, value < 1e9 else {
                throw fail("\(op) needs \"\(key)\", a whole number from 0")
            }
            return Int(value)
        }
        switch op {
        case "drop": return .drop(track: try int("track"))
        case "keep": return .keep(track: try int("track"))
        case "mask": return .mask(track: try int("track"))
        case "unmark": return .unmark(track: try int("track"))
        case "rename":
            guard let person = object["person"] as? String else { throw fail("rename needs \"person\", a string") }
            guard !person.contains(where: { $0.isNewline }) else { throw fail("a person's name is one line") }
            return .rename(track: try int("track"), person: person.trimmingCharacters(in: .whitespaces))
        case "split": return .split(track: try int("track"), frame: try int("frame"), newTrack: try int("new_track"))
        case "join": return .join(track: try int("track"), into: try int("into"))
        default: throw fail("unknown op '\(op)' (drop, keep, mask, unmark, rename, split, join)")
        }
    }

    /// Applies the edits in order to `rows` (a tracks file's), failing on an edit that names a
    /// track the rows do not have at that point, a split outside its track, a new ID in use, or a
    /// join of tracks that share a frame.
    package func apply(to rows: inout [TrackFile.Row]) throws {
        for (index, edit) in edits.enumerated() {
            func fail(_ reason: String) -> RenderError { RenderError(path: path, reason: "edit \(index + 1): \(reason)") }
            func frames(of track: Int) throws -> [Int] {
                let frames = rows.filter { $0.trackID == track }.map(\.frame)
                if frames.isEmpty { throw fail("track \(track) is not in the tracks file (or an edit before removed it)") }
                return frames
            }
            func change(_ track: Int, _ body: (inout TrackFile.Row) -> Void) throws {
                _ = try frames(of: track)
                for i in rows.indices where rows[i].trackID == track { body(&rows[i]) }
            }
            switch edit {
            case .drop(let track):
                _ = try frames(of: track)
                rows.removeAll { $0.trackID == track }
            case .keep(let track): try change(track) { $0.mask = .keep }
            case .mask(let track): try change(track) { $0.mask = .mask }
            case .unmark(let track): try change(track) { $0.mask = nil }
            case let .rename(track, person): try change(track) { $0.person = person.isEmpty ? nil : person }
            case let .split(track, frame, newTrack):
                let frames = try frames(of: track)
                guard frames.contains(where: { $0 < frame }), frames.contains(where: { $0 >= frame }) else {
                    throw fail("track \(track) runs from frame \(frames.min()!) to \(frames.max()!): frame \(frame) does not split it")
                }
                guard !rows.contains(where: { $0.trackID == newTrack }) else { throw fail("track \(newTrack) already exists") }
                for i in rows.indices where rows[i].trackID == track && rows[i].frame >= frame { rows[i].trackID = newTrack }
            case let .join(track, into):
                guard track != into else { throw fail("a track cannot join itself") }
                let shared = Set(try frames(of: track)).intersection(try frames(of: into))
                if let first = shared.min() {
                    throw fail("tracks \(track) and \(into) both have a face on frame \(first): only tracks that never meet can join")
                }
                for i in rows.indices where rows[i].trackID == track { rows[i].trackID = into }
            }
        }
    }
}

/// A file `render` or `apply-edits` cannot use (a bad edits file, an edit that does not fit the
/// tracks, a still image given as a video): one line naming the file.
package struct RenderError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let reason: String
    package var description: String { "\(path): \(reason)" }
}
