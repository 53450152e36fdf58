import Identity

/// One call a run made on its `IdentityLedger`, in the order made: what a segment of a split plan
/// writes so that `stitch` can make the same calls over the whole video (`IdentityLedger.apply`)
/// and come out with the identities one run would give.
package struct IdentityEvent: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable {
        /// A detected face of track `serial` at `time`, with its embedding when one was computed.
        case observe = "o"
        /// Track `serial` is published: its identity is decided (at `time`, the latest frame's).
        case decide = "d"
        /// Track `serial` ended (the tracker dropped it).
        case end = "e"
        /// A shot boundary at `time` (a fade or dissolve from `transition`): every track ended.
        case cut = "x"
    }

    package var kind: Kind
    /// The number of the frame the tracking stage was resolving when the call was made.
    package var frame: Int
    package var serial: Int?
    package var time: Double
    package var transition: Double?
    package var quality: Double?
    package var embedding: [Float]?

    package init(kind: Kind, frame: Int, serial: Int? = nil, time: Double, transition: Double? = nil,
                 sample: FaceSample? = nil) {
        self.kind = kind
        self.frame = frame
        self.serial = serial
        self.time = time
        self.transition = transition
        quality = sample?.quality
        embedding = sample?.embedding.values
    }

    /// The embedding, when the event has one.
    package var sample: FaceSample? {
        guard let quality, let embedding else { return nil }
        return FaceSample(embedding: FaceEmbedding(values: embedding), quality: quality)
    }
}

/// Where a run's identity calls and published rows go as they happen (a segment's record).
package protocol IdentityRecording: AnyObject, Sendable {
    /// A call on the ledger, in order.
    func record(_ event: IdentityEvent)
    /// A row of frame `frame` written as identity `id`, from track `serial`, while frame
    /// `publishedAt` was being resolved.
    func recordRow(frame: Int, id: Int, serial: Int, publishedAt: Int)
}

/// The identities of a run's tracks, over `ReidentificationIndex`: which identity each tracker
/// serial carries from when (a split gives it a new one from a time on). `IdentityResolver` drives
/// it frame by frame; `stitch` replays a split plan's recorded calls through the same type, so the
/// whole video's identities come out of the same decisions.
package struct IdentityLedger {
    /// The index the decisions come from (its galleries name tracks; `wantsSample` picks embeddings).
    package private(set) var index: ReidentificationIndex
    /// Whether re-identification decides identities (otherwise the tracker's IDs stand).
    package let reidentify: Bool
    /// Tracker serial → identities, each from a time on (the first from the start; a split adds
    /// one), with the frame being resolved when it was decided.
    private var identities: [Int: [(since: Double, identity: Int, decidedAt: Int)]] = [:]
    /// Where the calls are recorded, if anywhere.
    private let recording: IdentityRecording?
    /// The number of the frame being resolved, for the record.
    package var frame = 0

    package init(settings: ReidentificationSettings, reidentify: Bool, recording: IdentityRecording? = nil) {
        index = ReidentificationIndex(settings: settings)
        self.reidentify = reidentify
        self.recording = recording
    }

    /// Whether `serial`'s identity is decided.
    package func isDecided(_ serial: Int) -> Bool { identities[serial] != nil }

    /// The identity `serial` carries at `time` (nil before it is decided); with `publishedAt`, as
    /// it was known when frame `publishedAt` was resolved (a row written then keeps the identity it
    /// was written with, though a later split dates the new identity back to before it).
    package func identity(of serial: Int, at time: Double, publishedAt: Int? = nil) -> Int? {
        guard let segments = identities[serial] else { return nil }
        return segments.last { $0.since <= time && $0.decidedAt <= (publishedAt ?? .max) }?.identity ?? segments.first?.identity
    }

    /// The latest identity of `serial` (nil before it is decided).
    package func latestIdentity(of serial: Int) -> Int? { identities[serial]?.last?.identity }

    /// From when `serial` carries its latest identity (a split's first sample of the new face;
    /// nil before it is decided, -infinity from its start).
    package func latestIdentitySince(of serial: Int) -> Double? { identities[serial]?.last?.since }

    /// A detected face of `serial` at `time`, with its embedding when one was computed; a split
    /// (the face turned into someone else's) gives a decided track a new identity from then on.
    package mutating func observe(_ serial: Int, sample: FaceSample?, time: Double) {
        recording?.record(IdentityEvent(kind: .observe, frame: frame, serial: serial, time: time, sample: sample))
        if let decision = index.observe(track: serial, sample: sample, time: time), reidentify, identities[serial] != nil {
            identities[serial, default: []].append((decision.since ?? time, decision.identity, frame))
        }
    }

    /// Decides `serial`'s identity at `time` with the evidence so far (the tracker's `trackerID`
    /// stands without re-identification) and returns it.
    @discardableResult
    package mutating func decide(_ serial: Int, time: Double, trackerID: Int? = nil) -> Int {
        if let identity = latestIdentity(of: serial) { return identity }
        recording?.record(IdentityEvent(kind: .decide, frame: frame, serial: serial, time: time))
        let decision = index.confirm(track: serial, time: time)
        let identity = reidentify ? decision.identity : (trackerID ?? decision.identity)
        identities[serial] = [(-Double.infinity, identity, frame)]
        return identity
    }

    /// `serial` ended; its identity stays a candidate for later tracks.
    package mutating func end(_ serial: Int) {
        recording?.record(IdentityEvent(kind: .end, frame: frame, serial: serial, time: 0))
        index.end(track: serial)
    }

    /// A shot boundary at `time` (a fade or dissolve began at `transitionStart`): every track ends.
    package mutating func cut(at time: Double, transitionStart: Double?) {
        recording?.record(IdentityEvent(kind: .cut, frame: frame, time: time, transition: transitionStart))
        index.endAll(at: time, transitionStart: transitionStart)
    }

    /// Makes a recorded call again, for track `serial` (the event's, renumbered by the caller). An
    /// embedding this ledger would not have asked for (`wantsSample`) is left out: the run that
    /// recorded it knew less of the track's past.
    package mutating func apply(_ event: IdentityEvent, serial: Int?) {
        frame = event.frame
        switch event.kind {
        case .observe:
            guard let serial else { return }
            let wanted = index.wantsSample(track: serial, time: event.time)
            observe(serial, sample: wanted ? event.sample : nil, time: event.time)
        case .decide: if let serial { decide(serial, time: event.time) }
        case .end: if let serial { end(serial) }
        case .cut: cut(at: event.time, transitionStart: event.transition)
        }
    }
}
