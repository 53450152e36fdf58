import FaceCore
import Identity
import MediaIO

/// The tracking stage's identity work, on its queue, frame by frame in order: embeds a detected
/// face only when its track's gallery wants one (`ReidentificationIndex.wantsSample`: a few per
/// track, spread in time, the best kept), publishes each confirmed track's ID as its first row
/// leaves the look-ahead window (a continued earlier one when re-identification finds the face
/// again after a gap or a boundary; from a split on, a new one when the face turned into someone
/// else's), names tracks after known people and decides who `--keep`/`--only` masks.
///
/// Embeddings run here rather than on the analysis lanes because only this stage knows which
/// track wants one; a few per track cost far less than one per face per frame.
final class IdentityResolver {
    /// The identities of the tracks, decided by re-identification (shared with `stitch`'s replay).
    private var ledger: IdentityLedger
    private let embedder: IdentityEmbedder
    private let known: KnownPeople?
    private let keep: Set<String>?
    private let only: Set<String>?
    private let converter = PixelConverter()
    private let pool: ImagePool
    /// Serials the tracker has confirmed (rows with a track ID), to publish before they end.
    private var confirmed: Set<Int> = []
    /// Tracker serial → known person and distance from a time on, from the track's gallery.
    private var people: [Int: TrackNames] = [:]
    /// Identity → known person, for the summary (the latest decision).
    private(set) var personOfIdentity: [Int: (name: String, distance: Float)] = [:]
    /// Serials the index holds, to end those the tracker dropped.
    private var tracked: Set<Int> = []
    /// Where the samples go by published ID (a segment of a split plan writes them); nil keeps none.
    private let galleries: IdentityGalleries?
    /// Samples of tracks not yet published, by serial: they join the ID the track is published as.
    private var pending: [Int: TrackGallery] = [:]
    /// Faces embedded so far.
    private(set) var embeddingCount = 0
    /// The time of the last frame resolved.
    private(set) var lastTime = 0.0

    init(settings: IdentitySettings, model: IdentityModels, known: KnownPeople?, pool: ImagePool,
         galleries: IdentityGalleries? = nil, threads: Int = 1) throws {
        self.galleries = galleries
        var reid = ReidentificationSettings()
        reid.threshold = Float(settings.reidThreshold)
        reid.window = settings.reidWindow
        ledger = IdentityLedger(settings: reid, reidentify: settings.reidentify, recording: galleries)
        embedder = try IdentityEmbedder(models: model, threads: threads)
        self.known = known
        keep = settings.keep.isEmpty ? nil : Set(settings.keep)
        only = settings.only.isEmpty ? nil : Set(settings.only)
        self.pool = pool
    }

    /// A shot boundary at `time`: every track ends, identity alone decides who continues in the
    /// new shot; a fade or dissolve began at `transitionStart`.
    func cut(at time: Double, transitionStart: Double?, frame: Int) {
        ledger.frame = frame
        for serial in tracked.sorted() { publishIfConfirmed(serial) }
        ledger.cut(at: time, transitionStart: transitionStart)
        tracked.removeAll()
        pending.removeAll()
    }

    /// Embeds what the index wants on this frame and feeds it every detected face. `live` lists
    /// the tracker's serials after this frame. Track IDs are left as the tracker's: `publish`
    /// turns them into identities as the rows leave the look-ahead window.
    func resolve(_ rows: inout [TrackedFace], job: inout FrameJob, live: Set<Int>) throws {
        ledger.frame = job.number
        for serial in tracked.sorted() where !live.contains(serial) {
            publishIfConfirmed(serial)
            ledger.end(serial)
            pending.removeValue(forKey: serial)
        }
        tracked.formIntersection(live)
        lastTime = job.time
        var image: BGRAImage?
        for row in rows where row.trackSerial != 0 {
            if row.trackID != nil { confirmed.insert(row.trackSerial) }
            guard row.source.isDetection else { continue }
            let serial = row.trackSerial
            tracked.insert(serial)
            var sample: FaceSample?
            if ledger.index.wantsSample(track: serial, time: job.time) {
                if image == nil { image = try job.uprightImage(converter: converter, pool: pool) }
                if let image { sample = embedder.sample(of: row.observation, in: image) }
                if sample != nil { embeddingCount += 1 }
            }
            ledger.observe(serial, sample: sample, time: job.time)
            if let sample {
                name(serial)
                collect(sample, of: serial)
            }
        }
        // The frame waits in the look-ahead window next: its picture goes back to the pool now.
        if image != nil { job.releasePictures(into: pool) }
    }

    /// Gives the rows of frame `frame` leaving the window (at `time`) their published identities.
    /// Returns the rows taken out: a second row of one identity on the frame (a track that
    /// another continued, still coasting), which the caller hides rather than writes.
    func publish(_ rows: inout [TrackedFace], frame: Int, time: Double) -> [TrackedFace] {
        for i in rows.indices where rows[i].trackSerial != 0 {
            guard let trackerID = rows[i].trackID else { continue }
            rows[i].trackID = identity(of: rows[i].trackSerial, trackerID: trackerID, at: time)
        }
        var removed: [TrackedFace] = []
        var seen: [Int: Int] = [:]
        var kept: [TrackedFace] = []
        for row in rows {
            guard let id = row.trackID else { kept.append(row); continue }
            if let at = seen[id] {
                // A detected row beats a predicted one; otherwise the first stays.
                if !kept[at].source.isDetection && row.source.isDetection {
                    removed.append(kept[at])
                    kept[at] = row
                } else {
                    removed.append(row)
                }
            } else {
                seen[id] = kept.count
                kept.append(row)
            }
        }
        rows = kept
        if let galleries {
            for row in kept where row.trackSerial != 0 {
                if let id = row.trackID { galleries.recordRow(frame: frame, id: id, serial: row.trackSerial, publishedAt: ledger.frame) }
            }
        }
        return removed
    }

    /// The identity track `serial` (the tracker's `trackerID`) carries at `time`, decided on first use.
    private func identity(of serial: Int, trackerID: Int, at time: Double) -> Int {
        if !ledger.isDecided(serial) { decide(serial, trackerID: trackerID) }
        return ledger.identity(of: serial, at: time) ?? trackerID
    }

    private func publishIfConfirmed(_ serial: Int) {
        if confirmed.contains(serial), !ledger.isDecided(serial) { decide(serial, trackerID: nil) }
    }

    /// Publishes track `serial` with the evidence gathered so far.
    private func decide(_ serial: Int, trackerID: Int?) {
        // Without re-identification the tracker's own ID stands (known first on the track's first row).
        let identity = ledger.decide(serial, time: lastTime, trackerID: trackerID)
        if let waiting = pending.removeValue(forKey: serial) { galleries?.add(waiting, to: identity) }
        if let person = people[serial]?.latest { personOfIdentity[identity] = person }
    }

    /// Keeps a sample for the gallery of the ID `serial` is published as (its latest, once published).
    private func collect(_ sample: FaceSample, of serial: Int) {
        guard let galleries else { return }
        if let identity = ledger.latestIdentity(of: serial) {
            galleries.add(sample, to: identity)
        } else {
            pending[serial, default: TrackGallery()].add(sample)
        }
    }

    /// Names track `serial` from its gallery (no one from the start of a doubt on).
    private func name(_ serial: Int) {
        guard let known, let gallery = ledger.index.gallery(of: serial) else { return }
        let doubt = ledger.index.doubtSince(track: serial)
        people[serial, default: TrackNames()].update(match: doubt == nil ? known.match(gallery) : nil,
                                                      doubtSince: doubt, identitySince: ledger.latestIdentitySince(of: serial),
                                                      time: lastTime)
        if let identity = ledger.latestIdentity(of: serial) { personOfIdentity[identity] = people[serial]?.latest }
    }

    /// Fills the person and the mask decision of rows of `time` leaving the look-ahead (written or
    /// hidden): each row takes the name its track had at that time. On a `mixed` picture (a
    /// dissolve's middle, about half one shot and half the other: two faces blended) no row is
    /// named, whoever its track turns out to be; masks stay on the safe side (`--keep` masks it,
    /// `--only` masks it as it would its track).
    func label(_ rows: inout [TrackedFace], time: Double, mixed: Bool = false) {
        for i in rows.indices {
            let serial = rows[i].trackSerial
            let track = serial == 0 ? nil : people[serial]?.name(at: time)
            if serial != 0 { people[serial]?.forget(before: time) }
            let match = mixed ? nil : track
            let person = match?.name
            rows[i].person = person
            rows[i].personDistance = match?.distance
            if let keep {
                // Fail safe: only a face named as a kept person goes unmasked.
                rows[i].masked = !(person.map(keep.contains) ?? false)
            } else if let only {
                rows[i].masked = track.map { only.contains($0.name) } ?? false
            }
        }
    }
}
