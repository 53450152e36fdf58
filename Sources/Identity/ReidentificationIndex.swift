/// Settings of `ReidentificationIndex`.
package struct ReidentificationSettings: Sendable, Equatable {
    /// Largest distance from a track's gallery centroid to an earlier identity's at which the
    /// track continues that identity, and beyond which a live track's samples count as someone
    /// else. Lower than dlib's 0.6 for one pair of pictures, because centroids are steadier and
    /// dlib's model puts some different people (children, East Asian faces) closer than 0.6:
    /// measured on four people's talking-head clips, one picture against another stretch's
    /// gallery of 8 gave 0.12...0.35 for the same person and 0.43 and more for different people.
    package var threshold: Float = 0.4
    /// Seconds an ended identity stays a candidate; nil for the whole video.
    package var window: Double?
    /// Whether a new track may take over a live track the tracker lost but has not dropped yet
    /// (a face that reappears away from its forecast within `--max-age`). The replaced track's
    /// rows may still sit in the look-ahead window beside the new track's look-back rows; the
    /// window writes one row per ID and frame (`LookaheadBuffer`).
    package var continuesLiveTracks = true
    /// Samples kept per identity (`TrackGallery`).
    package var galleryCapacity = TrackGallery.defaultCapacity
    /// Ended identities remembered at most, the longest unseen forgotten first: bounds memory over
    /// a whole video (about 4 KB each).
    package var rememberedIdentities = 2000
    /// Consecutive samples of a confirmed track that must all lie farther than `threshold` from its
    /// gallery before the track is split (one odd picture is not a new person).
    package var driftSamples = 3
    /// Samples of lower `FaceSample.quality` are ignored (too small, turned or blurred to judge).
    package var minimumQuality = 0.0
    /// Seconds between samples a confirmed track with a full gallery still wants (`wantsSample`),
    /// so that a drift is noticed.
    package var sampleInterval = 1.0

    /// The defaults.
    package init() {}
}

/// What the index decided about a track's identity.
package struct IdentityDecision: Sendable, Equatable {
    /// The identity the track carries from now on: the published track ID.
    package var identity: Int
    /// The centroid distance to the earlier identity it continues; nil for a new identity.
    package var distance: Float?
    /// A live track that carried this identity until now (not seen since this one appeared):
    /// the tracker should end it.
    package var replacedTrack: Int?

    /// True when the track continues an earlier identity.
    package var isContinuation: Bool { distance != nil }
}

/// Re-identification across a video, for a tracking stage that runs frames in order: keeps a
/// gallery of embeddings per track, decides at confirmation whether a track continues an earlier
/// identity (one that ended within `window`, or a live track not seen since this one appeared),
/// and splits a track whose face has turned into someone else's. Identities are numbered 1, 2, 3...
/// in order of first confirmation, never reused. Tracks are the tracker's own numbers, identities
/// what the output shows.
///
/// Typical use, per frame: `observe` each detected face of each track (with an embedding when one
/// was computed), `confirm` newly confirmed tracks, `end` dropped tracks; at a shot cut `endAll`
/// first, so identity alone decides who continues.
package struct ReidentificationIndex {
    private struct LiveTrack {
        var identity: Int?
        var gallery: TrackGallery
        /// Consecutive samples far from the gallery, the newest last.
        var outliers: [FaceSample] = []
        var firstSeen: Double
        var lastSeen: Double
        /// When the track was last seen with a sample that agreed with its gallery (or without one).
        var lastConsistent: Double
        var firstOutlier: Double?
        var lastSample: Double?
    }

    private struct EndedIdentity {
        var identity: Int
        var gallery: TrackGallery
        var lastSeen: Double
    }

    /// The settings in force.
    package let settings: ReidentificationSettings
    private var live: [Int: LiveTrack] = [:]
    private var ended: [EndedIdentity] = []
    private var nextIdentity = 1

    /// An empty index.
    package init(settings: ReidentificationSettings = ReidentificationSettings()) {
        self.settings = settings
    }

    /// The identity `track` carries, nil while it is tentative or unknown.
    package func identity(of track: Int) -> Int? { live[track]?.identity }

    /// The gallery of a live track (to name it against known people, or to summarise it).
    package func gallery(of track: Int) -> TrackGallery? { live[track]?.gallery }

    /// Whether an embedding of `track`'s face at `time` would help: the track has none yet, its
    /// gallery is not full, it is drifting, or its last sample is `sampleInterval` old. Lets a
    /// tracking stage embed a few faces per track rather than every face on every frame.
    package func wantsSample(track: Int, time: Double) -> Bool {
        guard let state = live[track], let last = state.lastSample else { return true }
        return state.gallery.samples.count < state.gallery.capacity || !state.outliers.isEmpty
            || time - last >= settings.sampleInterval
    }

    /// Identities remembered after their tracks ended.
    package var endedIdentityCount: Int { ended.count }

    /// Records that `track` was detected at `time` (seconds, non-decreasing), with the face's
    /// `sample` when one was computed on this frame. Returns a decision when the sample completes
    /// a drift: the confirmed track is now someone else, its old identity ends and it carries
    /// the returned one.
    package mutating func observe(track: Int, sample: FaceSample?, time: Double) -> IdentityDecision? {
        var state = live[track] ?? LiveTrack(gallery: TrackGallery(capacity: settings.galleryCapacity), firstSeen: time,
                                             lastSeen: time, lastConsistent: time)
        state.lastSeen = time
        if sample != nil { state.lastSample = time }
        guard let sample, sample.quality >= settings.minimumQuality else {
            if state.outliers.isEmpty { state.lastConsistent = time }
            live[track] = state
            return nil
        }
        guard state.identity != nil, let distance = state.gallery.distance(to: sample.embedding),
              distance >= settings.threshold else {
            state.gallery.add(sample)
            state.outliers.removeAll()
            state.firstOutlier = nil
            state.lastConsistent = time
            live[track] = state
            return nil
        }
        if state.outliers.isEmpty { state.firstOutlier = time }
        state.outliers.append(sample)
        guard state.outliers.count >= settings.driftSamples, let oldIdentity = state.identity else {
            live[track] = state
            return nil
        }
        // Split: the old identity ends where its face was last seen; the outliers start a new gallery.
        remember(EndedIdentity(identity: oldIdentity, gallery: state.gallery, lastSeen: state.lastConsistent))
        var gallery = TrackGallery(capacity: settings.galleryCapacity)
        for outlier in state.outliers { gallery.add(outlier) }
        let start = state.firstOutlier ?? time
        return decide(track: track, LiveTrack(gallery: gallery, firstSeen: start, lastSeen: time, lastConsistent: time),
                      excluding: oldIdentity, time: time)
    }

    /// `track` has just been confirmed: it continues the closest earlier identity under the
    /// threshold, or gets a new one. A track without any sample yet always gets a new identity,
    /// so compute at least one embedding before confirming. Confirming twice returns the same.
    package mutating func confirm(track: Int, time: Double) -> IdentityDecision {
        let state = live[track] ?? LiveTrack(gallery: TrackGallery(capacity: settings.galleryCapacity), firstSeen: time,
                                             lastSeen: time, lastConsistent: time)
        if let identity = state.identity { return IdentityDecision(identity: identity) }
        return decide(track: track, state, excluding: nil, time: time)
    }

    /// `track` is gone (lost for longer than the tracker keeps it); its identity stays a
    /// candidate for later tracks.
    package mutating func end(track: Int) {
        guard let state = live.removeValue(forKey: track), let identity = state.identity else { return }
        remember(EndedIdentity(identity: identity, gallery: state.gallery, lastSeen: state.lastConsistent))
    }

    /// Ends every live track (a shot cut): in the next shot, identity alone decides who continues.
    package mutating func endAll() {
        for track in live.keys.sorted() { end(track: track) }
    }

    /// Gives `track` (in `state`, not yet identified) the closest candidate identity under the
    /// threshold, or a new one, and stores it.
    private mutating func decide(track: Int, _ state: LiveTrack, excluding excluded: Int?, time: Double)
        -> IdentityDecision {
        var state = state
        forgetExpired(now: time)
        var best: (distance: Float, ended: Int?, live: Int?)?
        if !state.gallery.isEmpty {
            // Candidates never seen at the same time as this track: ended ones, and live tracks
            // not seen since this one appeared (the tracker lost them and has not dropped them yet).
            for (index, candidate) in ended.enumerated()
            where candidate.identity != excluded && candidate.lastSeen < state.firstSeen {
                if let distance = state.gallery.distance(to: candidate.gallery), distance < (best?.distance ?? .infinity) {
                    best = (distance, index, nil)
                }
            }
            for (other, candidate) in live where settings.continuesLiveTracks && other != track && candidate.identity != nil
                && candidate.identity != excluded && candidate.lastSeen < state.firstSeen {
                if let distance = state.gallery.distance(to: candidate.gallery), distance < (best?.distance ?? .infinity) {
                    best = (distance, nil, other)
                }
            }
        }
        var decision: IdentityDecision
        if let best, best.distance < settings.threshold, let index = best.ended {
            let candidate = ended.remove(at: index)
            state.gallery.merge(candidate.gallery)
            decision = IdentityDecision(identity: candidate.identity, distance: best.distance)
        } else if let best, best.distance < settings.threshold, let other = best.live,
                  let candidate = live.removeValue(forKey: other), let identity = candidate.identity {
            state.gallery.merge(candidate.gallery)
            decision = IdentityDecision(identity: identity, distance: best.distance, replacedTrack: other)
        } else {
            decision = IdentityDecision(identity: nextIdentity)
            nextIdentity += 1
        }
        state.identity = decision.identity
        live[track] = state
        return decision
    }

    /// Keeps an ended identity as a candidate (when it has anything to compare), within the memory bound.
    private mutating func remember(_ identity: EndedIdentity) {
        guard !identity.gallery.isEmpty else { return }
        ended.append(identity)
        if ended.count > settings.rememberedIdentities,
           let oldest = ended.indices.min(by: { ended[$0].lastSeen < ended[$1].lastSeen }) {
            ended.remove(at: oldest)
        }
    }

    /// Drops ended identities unseen for longer than the window.
    private mutating func forgetExpired(now: Double) {
        guard let window = settings.window else { return }
        ended.removeAll { now - $0.lastSeen > window }
    }
}
