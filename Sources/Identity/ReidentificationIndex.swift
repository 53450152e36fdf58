/// Settings of `ReidentificationIndex`. The thresholds were chosen on the identity corpus bench's
/// tune half (odd-numbered people) from the distance distributions it prints (docs/identity.md).
package struct ReidentificationSettings: Sendable, Equatable {
    /// Largest distance from a track's gallery centroid to an earlier identity's at which the
    /// track continues that identity, and beyond which a live track's samples count as someone
    /// else. Distances are `IdentityEmbedder`'s (dlib's and SFace's joined). The tune half's
    /// decisions (docs/identity.md, "Two networks, one distance"): one person's returns at most
    /// 0.397 (and one return of a face blended by a missed dissolve, 0.553), a new face's closest
    /// other person 0.429 and more; the developers' two men, whom dlib alone put 0.414 apart, 0.551.
    package var threshold: Float = 0.4
    /// A continuation needs the best candidate this much closer than the second best (another
    /// identity); a split needs the new face this much farther than `threshold`. dlib's 0.08 lost a
    /// split on the tune half (a track that ran on into another person after a missed boundary,
    /// whose new face lay between 0.45 and 0.48 from its gallery) and changed nothing else.
    package var margin: Float = 0.05
    /// Beyond `threshold`, a track still continues its best candidate up to `wideReach` farther when
    /// another identity is a candidate too and lies at least `wideMargin` farther than the best: a
    /// return that stands out (good samples only, not poor evidence). On the tune half's 21 sequences
    /// (the bench's 9 and 12 more), a new face's best candidate under 0.45 was at most 0.088 closer than
    /// its runner-up (0.429 and 0.444, another person), one person's returns from 0.35 on at least 0.139
    /// closer; 0.11 is between. Report-half people's returns reach 0.436 (docs/identity.md, "Returns
    /// that stand out").
    package var wideReach: Float = 0.05
    /// The least lead over the runner-up a continuation beyond `threshold` needs (see `wideReach`).
    package var wideMargin: Float = 0.11
    /// Seconds an ended identity stays a candidate; nil for the whole video.
    package var window: Double?
    /// Whether a new track may take over a live track the tracker lost but has not dropped yet
    /// (a face that reappears away from its forecast within `--max-age`), once that track has
    /// been unseen for `lostFor`: a face tracked a moment ago is the tracker's, not a candidate.
    package var continuesLiveTracks = true
    /// Seconds a live track must have been unseen, before the new track first appeared, to be a candidate.
    package var lostFor = 0.25
    /// Samples kept per identity (`TrackGallery`).
    package var galleryCapacity = TrackGallery.defaultCapacity
    /// Ended identities remembered at most, the longest unseen forgotten first: bounds memory over
    /// a whole video (about 4 KB each).
    package var rememberedIdentities = 2000
    /// Samples of a confirmed track, all farther than `threshold` from its gallery and agreeing
    /// with each other, before the track is split (one odd picture is not a new person) ...
    package var driftSamples = 4
    /// ... spread over at least this many seconds (a head turn or a hand passes within that).
    package var driftSeconds = 0.5
    /// A continuation needs at least this many samples in the new track's gallery.
    package var decisionSamples = 2
    /// Samples of lower `FaceSample.quality` are ignored (too small, turned or blurred to judge). Below
    /// 0.1 they still tell people apart once two or more are averaged (measured with dlib's descriptor
    /// alone, before the joined embedding, which kept this gate: the tune half's faces shrunk to
    /// 45 %: galleries of 2 samples of quality 0.02 to 0.1, same person at most 0.58, others 0.50 and
    /// more; below 0.02 the same person's reach 0.63), so a small or soft face keeps a gallery to be
    /// continued and named from; the gallery keeps the best `galleryCapacity`, so better ones replace them.
    package var minimumQuality = 0.03
    /// A track published before `decisionSamples` samples of `minimumQuality` came (a soft or small
    /// face after a cut) may still continue an earlier identity on poorer ones, from this quality
    /// on: at least `poorEvidenceSamples` of them with its good ones, averaged, within
    /// `poorEvidenceThreshold` of the candidate and with the usual margin. With dlib's descriptor
    /// alone (the joined embedding kept the number, its scale set so that 0.4 stayed the threshold),
    /// on the tune half's clips shrunk to 35 and 25 %, three samples of quality 0.01 to 0.03 averaged lay at most 0.445 from
    /// 8-sample galleries of the same person (median 0.287) and at least 0.467 from anyone else's.
    package var poorEvidenceQuality = 0.01
    /// Samples (good and poor) a continuation on poor evidence needs.
    package var poorEvidenceSamples = 3
    /// Largest centroid distance at which poor evidence continues an identity: stricter than
    /// `threshold`, 0.117 short of the closest other person above.
    package var poorEvidenceThreshold: Float = 0.35
    /// A sample far from its track's gallery counts towards a split only from this quality on: a
    /// split ends an identity, so it rests on pictures that are clearly someone else's.
    package var splitQuality = 0.1
    /// Seconds between samples a confirmed track with a full gallery still wants (`wantsSample`),
    /// so that a drift is noticed.
    package var sampleInterval = 0.5
    /// Seconds between samples once a track has agreed with itself `settledSamples` times: its
    /// gallery is full of good pictures, and each sample (two networks, about 26 ms) mostly watches
    /// for a drift. A whole second's multiple of `sampleInterval`, so the seconds a settled track
    /// samples are among those an unsettled one samples (a segment that began later takes them too).
    package var settledInterval = 1.0
    /// A track's own agreeing samples from which it is settled: its gallery filled twice over
    /// (after about 4.8 s of a steady face).
    package var settledSamples = 16
    /// Fewest seconds between two samples of one track: consecutive frames show the same picture.
    package var sampleSpacing = 0.1

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
    /// From when the identity holds (a split: the first sample of the new face); nil from the start.
    package var since: Double?

    /// True when the track continues an earlier identity.
    package var isContinuation: Bool { distance != nil }
}

/// Re-identification across a video, for a tracking stage that runs frames in order: keeps a
/// gallery of good embeddings per track, decides when a track is published whether it continues
/// an earlier identity (one that ended within `window`, or a live track lost for `lostFor`), and
/// splits a track whose face has turned into someone else's. Every decision rests on several
/// samples and a margin, never on one picture: a continuation on `decisionSamples` samples (at
/// publication, or on `poorEvidenceSamples` poorer ones at a stricter threshold) and a best candidate
/// clearly ahead of the second (a little beyond the threshold, far ahead of it), a split on
/// `driftSamples` agreeing samples over `driftSeconds`. Identities are numbered 1, 2, 3... in order
/// of publication, never reused. Tracks are the tracker's own numbers, identities what the output shows.
///
/// Typical use, per frame: `observe` each detected face of each track (with an embedding when one
/// was computed), `confirm` a track when its first row is to be written (as late as the output
/// allows, so its gallery holds the most evidence), `end` dropped tracks; at a shot boundary
/// `endAll` first, so identity alone decides who continues.
package struct ReidentificationIndex {
    private struct LiveTrack {
        var identity: Int?
        var gallery: TrackGallery
        /// Consecutive samples far from the gallery, the newest last.
        var outliers: [FaceSample] = []
        /// From this distance on a sample is far from the gallery; nil for `threshold`. A track that
        /// continued a return that stood out (`wideReach`) holds two shots that far apart, so its own
        /// next pictures lie that far from the merged gallery too: they agree up to `threshold + wideReach`.
        var farFrom: Float?
        var firstSeen: Double
        var lastSeen: Double
        /// When the track was last seen with a sample that agreed with its gallery (or without one).
        var lastConsistent: Double
        var lastSample: Double?
        /// Samples this track added itself (a continuation merges an earlier identity's too).
        var ownSamples = 0
        /// The time of the latest sample that joined the gallery (agreed with it).
        var lastAgreed: Double?
        /// Samples between `poorEvidenceQuality` and `minimumQuality` taken before the track was
        /// published: they do not vote, but may carry its publication (`evidence`).
        var poor = TrackGallery()
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
    /// Samples before this time do not vote (the pictures of a fade or dissolve).
    private var quietUntil = -Double.infinity

    /// An empty index.
    package init(settings: ReidentificationSettings = ReidentificationSettings()) {
        self.settings = settings
    }

    /// The identity `track` carries, nil while it is tentative or unknown.
    package func identity(of track: Int) -> Int? { live[track]?.identity }

    /// The gallery of a live track (to name it against known people, or to summarise it).
    package func gallery(of track: Int) -> TrackGallery? { live[track]?.gallery }

    /// Whether `track`'s latest good samples lie far from its gallery (a turned head, or someone
    /// else under the same box after a boundary the detector missed) and no split has settled it
    /// yet: what the gallery says about the face now is in doubt, so it names no one.
    package func isInDoubt(track: Int) -> Bool { !(live[track]?.outliers.isEmpty ?? true) }

    /// From when what `track`'s gallery says is in doubt: just after its latest sample that agreed
    /// with the gallery (the face may have changed anywhere between that one and the first far one,
    /// which can be half a second apart); nil while it is in none.
    package func doubtSince(track: Int) -> Double? {
        guard let state = live[track], let first = state.outliers.first?.time else { return nil }
        return min(first, state.lastAgreed.map(\.nextUp) ?? first)
    }

    /// Whether an embedding of `track`'s face at `time` would help: the track has none yet, or
    /// its last is `sampleSpacing` old and it has not added a gallery's worth itself, it is
    /// drifting, or the last sample lies in an earlier `sampleInterval` (`settledInterval` once the
    /// track is settled) of the video. Lets a
    /// tracking stage embed a few faces per track rather than every face on every frame. Counting
    /// the track's own samples rather than its gallery's (which a continuation fills with an
    /// earlier identity's), and steady samples on the video's clock, keep the samples a track
    /// takes independent of what it continued and of where the run began: a segment of a split
    /// plan takes the samples one run takes (`stitch` replays them).
    package func wantsSample(track: Int, time: Double) -> Bool {
        guard let state = live[track], let last = state.lastSample else { return true }
        guard time - last >= settings.sampleSpacing else { return false }
        // Steady: one in each `sampleInterval` of the video's time (not of the track's), so that
        // runs which began at different frames take the same samples.
        let interval = state.ownSamples >= settings.settledSamples ? settings.settledInterval : settings.sampleInterval
        return state.ownSamples < state.gallery.capacity || !state.outliers.isEmpty
            || (time / interval).rounded(.down) > (last / interval).rounded(.down)
    }

    /// Identities remembered after their tracks ended.
    package var endedIdentityCount: Int { ended.count }

    /// Records that `track` was detected at `time` (seconds, non-decreasing), with the face's
    /// `sample` when one was computed on this frame. Returns a decision when the sample completes
    /// a drift: the confirmed track is now someone else, its old identity ends and it carries
    /// the returned one (from the first far sample on).
    package mutating func observe(track: Int, sample: FaceSample?, time: Double) -> IdentityDecision? {
        var state = live[track] ?? LiveTrack(gallery: TrackGallery(capacity: settings.galleryCapacity), firstSeen: time,
                                             lastSeen: time, lastConsistent: time)
        state.lastSeen = time
        if sample != nil { state.lastSample = time }
        guard var sample, sample.quality >= settings.minimumQuality, time >= quietUntil else {
            if var poor = sample, state.identity == nil, poor.quality >= settings.poorEvidenceQuality, time >= quietUntil {
                poor.time = time
                state.poor.add(poor)
            }
            if state.outliers.isEmpty { state.lastConsistent = time }
            live[track] = state
            return nil
        }
        sample.time = time
        guard state.identity != nil, let distance = state.gallery.distance(to: sample.embedding),
              distance >= state.farFrom ?? settings.threshold else {
            state.gallery.add(sample)
            state.ownSamples += 1
            state.lastAgreed = time
            state.outliers.removeAll()
            state.lastConsistent = time
            live[track] = state
            return nil
        }
        guard sample.quality >= settings.splitQuality else {
            // Far but poor: neither the track's face nor evidence of another's.
            if state.outliers.isEmpty { state.lastConsistent = time }
            live[track] = state
            return nil
        }
        guard state.gallery.samples.contains(where: { $0.quality >= settings.splitQuality }) else {
            // A gallery of poor samples only (a face half out of the picture, or small) is no ground
            // for a split: the first good picture replaces it.
            state.gallery.removeSamples(below: settings.splitQuality)
            state.gallery.add(sample)
            state.ownSamples += 1
            state.lastAgreed = time
            state.outliers.removeAll()
            state.lastConsistent = time
            live[track] = state
            return nil
        }
        state.outliers.append(sample)
        // Far samples of the last two seconds are kept; those that disagree with the newest (a
        // turned head, the mixed pictures of a transition) are no evidence for its face.
        state.outliers.removeAll { time - $0.time > 2 * max(settings.driftSeconds, 1) }
        guard let oldIdentity = state.identity, let evidence = drift(state) else {
            live[track] = state
            return nil
        }
        // Split: the old identity ends where its face was last seen; the outliers start a new gallery.
        remember(EndedIdentity(identity: oldIdentity, gallery: state.gallery, lastSeen: state.lastConsistent))
        let since = evidence.samples.map(\.time).min() ?? time
        var decision = decide(track: track, LiveTrack(gallery: evidence, firstSeen: since, lastSeen: time, lastConsistent: time),
                              excluding: oldIdentity, time: time)
        decision.since = since
        return decision
    }

    /// The outliers that agree with the newest, as a gallery, when they prove a different person:
    /// enough of them, over `driftSeconds`, agreeing with each other, and their centroid beyond
    /// `threshold + margin` from the track's gallery.
    private func drift(_ state: LiveTrack) -> TrackGallery? {
        guard let newest = state.outliers.last else { return nil }
        let outliers = state.outliers.filter { $0.embedding.distance(to: newest.embedding) < settings.threshold }
        guard outliers.count >= settings.driftSamples, let first = outliers.first, let last = outliers.last,
              last.time - first.time >= settings.driftSeconds else { return nil }
        var gallery = TrackGallery(capacity: max(settings.galleryCapacity, outliers.count))
        for outlier in outliers { gallery.add(outlier) }
        guard let centroid = gallery.centroid,
              outliers.allSatisfy({ $0.embedding.distance(to: centroid) < settings.threshold }),
              let apart = state.gallery.distance(to: centroid), apart >= settings.threshold + settings.margin else {
            return nil
        }
        return gallery
    }

    /// `track` is to be published: it continues the closest earlier identity under the threshold
    /// (with the margin over the next), or gets a new one. A track without `decisionSamples`
    /// samples gets a new identity. Confirming twice returns the same.
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

    /// Ends every live track (a shot boundary): in the next shot, identity alone decides who
    /// continues. After a fade or dissolve that began at `transitionStart`, the samples taken
    /// since then are forgotten and the next ones, until as long after `time`, do not vote: those
    /// pictures mix two people.
    package mutating func endAll(at time: Double? = nil, transitionStart: Double? = nil) {
        for track in live.keys.sorted() {
            if let start = transitionStart { live[track]?.gallery.removeSamples(since: start) }
            end(track: track)
        }
        if let start = transitionStart, let time { quietUntil = time + max(0, time - start) }
    }

    /// Gives `track` (in `state`, not yet identified) the closest candidate identity under the
    /// threshold, when it is clearly closer than the next, or a new one, and stores it.
    private mutating func decide(track: Int, _ state: LiveTrack, excluding excluded: Int?, time: Double)
        -> IdentityDecision {
        var state = state
        forgetExpired(now: time)
        // Candidates never seen at the same time as this track: ended ones, and live tracks
        // unseen for `lostFor` before this one appeared (the tracker lost them, not dropped them yet).
        var candidates: [(distance: Float, identity: Int, ended: Int?, live: Int?)] = []
        let judged = evidence(state, excluding: excluded)
        if let evidence = judged?.gallery {
            for (index, candidate) in ended.enumerated()
            where candidate.identity != excluded && candidate.lastSeen < state.firstSeen {
                if let distance = evidence.distance(to: candidate.gallery) {
                    candidates.append((distance, candidate.identity, index, nil))
                }
            }
            for (other, candidate) in live where settings.continuesLiveTracks && other != track
                && candidate.identity != nil && candidate.identity != excluded
                && candidate.lastSeen < state.firstSeen - settings.lostFor {
                if let distance = evidence.distance(to: candidate.gallery), let identity = candidate.identity {
                    candidates.append((distance, identity, nil, other))
                }
            }
        }
        let poorEvidence = judged?.poor ?? false
        let threshold = poorEvidence ? settings.poorEvidenceThreshold : settings.threshold
        candidates.sort { ($0.distance, $0.identity) < ($1.distance, $1.identity) }
        let best = candidates.first
        // The runner-up is the closest other identity that may be someone else: one person who got two
        // identities earlier (a track published before it had samples) is no doubt about who this is.
        func gallery(_ candidate: (distance: Float, identity: Int, ended: Int?, live: Int?)) -> TrackGallery? {
            if let index = candidate.ended { return ended[index].gallery }
            return candidate.live.flatMap { live[$0]?.gallery }
        }
        let bestGallery = best.flatMap(gallery)
        let runnerUp = candidates.first { candidate in
            guard candidate.identity != best?.identity else { return false }
            guard let bestGallery, let other = gallery(candidate), let apart = bestGallery.distance(to: other) else { return true }
            return apart >= settings.threshold
        }
        let clear = best.map { best in
            let lead = runnerUp.map { $0.distance - best.distance }
            if best.distance < threshold && (lead ?? .infinity) >= settings.margin { return true }
            // A return that stands out: well ahead of a second candidate, a little beyond the threshold.
            return !poorEvidence && best.distance < threshold + settings.wideReach && (lead ?? 0) >= settings.wideMargin
        } ?? false
        var decision: IdentityDecision
        if clear, let best, best.distance >= threshold { state.farFrom = threshold + settings.wideReach }
        if clear, let best, let index = best.ended {
            let candidate = ended.remove(at: index)
            state.gallery.merge(candidate.gallery)
            decision = IdentityDecision(identity: candidate.identity, distance: best.distance)
        } else if clear, let best, let other = best.live, let candidate = live.removeValue(forKey: other),
                  let identity = candidate.identity {
            state.gallery.merge(candidate.gallery)
            decision = IdentityDecision(identity: identity, distance: best.distance, replacedTrack: other)
        } else {
            decision = IdentityDecision(identity: nextIdentity)
            nextIdentity += 1
        }
        state.identity = decision.identity
        state.poor = TrackGallery()  // read at publication only
        live[track] = state
        return decision
    }

    /// What a continuation of `state` is judged on: its gallery from `decisionSamples` samples on; at
    /// publication (nothing `excluded`) without them, its good and poor samples together from
    /// `poorEvidenceSamples` on (`poor`: judged at `poorEvidenceThreshold`); else nothing.
    private func evidence(_ state: LiveTrack, excluding excluded: Int?) -> (gallery: TrackGallery, poor: Bool)? {
        if state.gallery.samples.count >= settings.decisionSamples { return (state.gallery, false) }
        guard excluded == nil, !state.poor.isEmpty,
              state.gallery.samples.count + state.poor.samples.count >= settings.poorEvidenceSamples else { return nil }
        var evidence = TrackGallery(capacity: settings.galleryCapacity)
        evidence.merge(state.gallery)
        evidence.merge(state.poor)
        return (evidence, true)
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
