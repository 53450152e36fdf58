import FaceCore
import Identity

/// A face row of a segment's CSV as the seam matching needs it.
package struct SeamRow: Sendable, Equatable {
    /// Frame number (in the whole video).
    package var frame: Int
    /// The segment's track ID.
    package var id: Int
    /// The box.
    package var box: Rect

    /// Creates a row.
    package init(frame: Int, id: Int, box: Rect) {
        self.frame = frame
        self.id = id
        self.box = box
    }
}

/// Which track of the earlier segment each track of the later one continues, judged on the frames
/// both segments read (the later one's overlap and the earlier one's tail): two tracks are the same
/// face on a frame where their boxes overlap at `iou` or more, and continue each other when that
/// happens on `minimumFrames` frames or more. Returns every such pair, the most frames first.
package enum SeamMatcher {
    /// One candidate pair.
    package struct Match: Sendable, Equatable {
        /// The later segment's track ID and the earlier one's.
        package var later: Int, earlier: Int
        /// Frames on which their boxes agree.
        package var frames: Int

        /// Creates a pair.
        package init(later: Int, earlier: Int, frames: Int) {
            self.later = later
            self.earlier = earlier
            self.frames = frames
        }
    }

    /// The pairs of `earlier`'s and `later`'s tracks whose boxes agree on the frames both have rows for.
    package static func matches(earlier: [SeamRow], later: [SeamRow], iou: Double = 0.5, minimumFrames: Int = 3) -> [Match] {
        let earlierByFrame = Dictionary(grouping: earlier, by: \.frame)
        var counts: [Pair: Int] = [:]
        for row in later {
            guard let others = earlierByFrame[row.frame] else { continue }
            for other in others where row.box.iou(other.box) >= iou {
                counts[Pair(later: row.id, earlier: other.id), default: 0] += 1
            }
        }
        return counts.filter { $0.value >= minimumFrames }
            .map { Match(later: $0.key.later, earlier: $0.key.earlier, frames: $0.value) }
            .sorted { ($0.frames, -$0.later, -$0.earlier) > ($1.frames, -$1.later, -$1.earlier) }
    }

    private struct Pair: Hashable {
        let later: Int, earlier: Int
    }
}

/// Gives every track ID of every segment its ID in the whole video, segment after segment: a track
/// that continues one of the segment before across the seam (`SeamMatcher`) takes its ID; another,
/// with re-identification on, takes the ID of an earlier face that ended before it appeared and
/// whose embeddings are within the threshold (as a single run's re-identification would have
/// continued it); any other gets a new ID. Two tracks of one segment seen on the same frame never
/// share an ID.
package struct IdentityAssigner {
    /// A segment's track, as the assigner sees it.
    package struct Track: Sendable {
        /// Its ID in the segment.
        package var id: Int
        /// Its first and last frame among the segment's own frames.
        package var first: Int, last: Int
        /// Its embeddings; nil or empty when none were computed.
        package var gallery: TrackGallery?

        /// Creates a track.
        package init(id: Int, first: Int, last: Int, gallery: TrackGallery?) {
            self.id = id
            self.first = first
            self.last = last
            self.gallery = gallery
        }
    }

    /// Re-identification across segments: the run's threshold and window.
    package struct Reidentification: Sendable {
        package var threshold: Double
        package var window: Double?
        package var framesPerSecond: Double

        /// Creates the settings.
        package init(threshold: Double, window: Double?, framesPerSecond: Double) {
            self.threshold = threshold
            self.window = window
            self.framesPerSecond = framesPerSecond
        }
    }

    private struct Identity {
        var gallery = TrackGallery()
        var lastFrame: Int
        var lastSegment: Int
        /// Frame spans of the current segment's tracks that carry it.
        var spans: [ClosedRange<Int>] = []
    }

    private var identities: [Identity] = []
    /// The previous segment's track IDs → identity.
    private var previous: [Int: Int] = [:]
    private var segment = -1
    private let reidentification: Reidentification?
    /// Tracks continued across a seam by their boxes, and by their embeddings.
    package private(set) var continuedByBoxes = 0, continuedByEmbeddings = 0

    /// An assigner; `reidentification` nil continues tracks by their boxes only (as a run without
    /// re-identification would).
    package init(reidentification: Reidentification?) {
        self.reidentification = reidentification
    }

    /// The identities (0, 1, 2...) of `tracks`, the next segment's, given the pairs `matches` found
    /// at the seam with the segment before (none for the first segment).
    package mutating func assign(_ tracks: [Track], matches: [SeamMatcher.Match]) -> [Int: Int] {
        segment += 1
        for i in identities.indices { identities[i].spans.removeAll() }
        var result: [Int: Int] = [:]
        let byID = Dictionary(tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func take(_ identity: Int, for track: Track) {
            result[track.id] = identity
            if let gallery = track.gallery { identities[identity].gallery.merge(gallery) }
            identities[identity].lastFrame = max(identities[identity].lastFrame, track.last)
            identities[identity].lastSegment = segment
            identities[identity].spans.append(track.first...track.last)
        }
        func free(_ identity: Int, for track: Track) -> Bool {
            !identities[identity].spans.contains { $0.overlaps(track.first...track.last) }
        }
        // One to one: an earlier track continues at most one later track (the one whose boxes agree
        // on the most frames). Two tracks the later segment told apart stay apart: the earlier
        // segment saw the second one only in its tail, whose identities it decided on the least
        // evidence (a face that turns into another person is split only once enough is seen).
        var continued = Set<Int>()
        for match in matches where !continued.contains(match.earlier) {
            guard let track = byID[match.later], result[track.id] == nil, let identity = previous[match.earlier],
                  free(identity, for: track) else { continue }
            take(identity, for: track)
            continued.insert(match.earlier)
            continuedByBoxes += 1
        }
        for track in tracks.sorted(by: { ($0.first, $0.id) < ($1.first, $1.id) }) where result[track.id] == nil {
            if let identity = reidentified(track) {
                take(identity, for: track)
                continuedByEmbeddings += 1
            } else {
                identities.append(Identity(lastFrame: track.last, lastSegment: segment))
                take(identities.count - 1, for: track)
            }
        }
        previous = result
        return result
    }

    /// The closest earlier identity under the threshold that ended before `track` appeared, in an
    /// earlier segment (the track's own segment already compared it with its own faces).
    private func reidentified(_ track: Track) -> Int? {
        guard let reid = reidentification, let gallery = track.gallery, !gallery.isEmpty else { return nil }
        var best: (distance: Float, identity: Int)?
        for (index, candidate) in identities.enumerated()
        where candidate.lastSegment < segment && candidate.lastFrame < track.first {
            if let window = reid.window, Double(track.first - candidate.lastFrame) / reid.framesPerSecond > window { continue }
            guard let distance = gallery.distance(to: candidate.gallery), distance < Float(reid.threshold) else { continue }
            if distance < (best?.distance ?? .infinity) { best = (distance, index) }
        }
        return best?.identity
    }
}
