import FaceCore
import Identity
import MediaIO

/// The tracking stage's identity work, on its queue, frame by frame in order: embeds a detected
/// face only when its track's gallery wants one (`ReidentificationIndex.wantsSample`: a few per
/// track, the best kept), gives each confirmed track its published ID (a continued earlier one
/// when re-identification finds the face again after a gap or a cut, a split when the face turns
/// into someone else's), names tracks after known people and decides who `--keep`/`--only` masks.
///
/// Embeddings run here rather than on the analysis lanes because only this stage knows which
/// track wants one; a few per track cost far less than one per face per frame.
final class IdentityResolver {
    private var index: ReidentificationIndex
    private let embedder: FaceEmbedder
    private let known: KnownPeople?
    private let reidentify: Bool
    private let keep: Set<String>?
    private let only: Set<String>?
    private let converter = PixelConverter()
    private let pool: ImagePool
    /// Tracker serial → published identity (the index's, or the tracker's ID without re-identification).
    private var identities: [Int: Int] = [:]
    /// Tracker serial → known person and distance, from the track's gallery.
    private var people: [Int: (name: String, distance: Float)] = [:]
    /// Identity → known person, for the summary (the latest decision).
    private(set) var personOfIdentity: [Int: (name: String, distance: Float)] = [:]
    /// Serials the index holds, to end those the tracker dropped.
    private var tracked: Set<Int> = []
    /// Faces embedded so far.
    private(set) var embeddingCount = 0
    /// The time of the last frame resolved.
    private(set) var lastTime = 0.0
    /// Where the samples go by published ID (a segment of a split plan writes them); nil keeps none.
    private let galleries: IdentityGalleries?
    /// Samples of tracks not yet confirmed, by serial: they join the ID the track is published as.
    private var pending: [Int: TrackGallery] = [:]

    init(settings: IdentitySettings, model: FaceEmbeddingModel, known: KnownPeople?, pool: ImagePool,
         galleries: IdentityGalleries? = nil) throws {
        self.galleries = galleries
        var reid = ReidentificationSettings()
        reid.threshold = Float(settings.reidThreshold)
        reid.window = settings.reidWindow
        index = ReidentificationIndex(settings: reid)
        embedder = try FaceEmbedder(model: model)
        self.known = known
        reidentify = settings.reidentify
        keep = settings.keep.isEmpty ? nil : Set(settings.keep)
        only = settings.only.isEmpty ? nil : Set(settings.only)
        self.pool = pool
    }

    /// A shot cut: every track ends, identity alone decides who continues in the new shot.
    func cut() {
        index.endAll()
        tracked.removeAll()
        pending.removeAll()
    }

    /// Embeds what the index wants on this frame, feeds it every detected face and rewrites the
    /// rows' track IDs to identities. `live` lists the tracker's serials after this frame.
    func resolve(_ rows: inout [TrackedFace], job: inout FrameJob, live: Set<Int>) throws {
        for serial in tracked where !live.contains(serial) {
            index.end(track: serial)
            identities.removeValue(forKey: serial)
            pending.removeValue(forKey: serial)
        }
        tracked.formIntersection(live)
        lastTime = job.time
        var image: BGRAImage?
        for row in rows where row.trackSerial != 0 && row.source.isDetection {
            let serial = row.trackSerial
            tracked.insert(serial)
            var sample: FaceSample?
            if index.wantsSample(track: serial, time: job.time) {
                if image == nil { image = try job.uprightImage(converter: converter, pool: pool) }
                if let image { sample = embedder.sample(of: row.observation, in: image) }
                if sample != nil { embeddingCount += 1 }
            }
            if let decision = index.observe(track: serial, sample: sample, time: job.time), reidentify {
                identities[serial] = decision.identity
                if let replaced = decision.replacedTrack { identities.removeValue(forKey: replaced) }
            }
            if let sample {
                name(serial)
                collect(sample, of: serial)
            }
        }
        for i in rows.indices where rows[i].trackSerial != 0 {
            if rows[i].trackID != nil { rows[i].trackID = identity(of: rows[i].trackSerial, trackerID: rows[i].trackID!, time: job.time) }
        }
    }

    /// The published identity of a track the tracker confirmed with `trackerID`.
    func identity(of serial: Int, trackerID: Int, time: Double) -> Int {
        if let identity = identities[serial] { return identity }
        let decision = index.confirm(track: serial, time: time)
        let identity = reidentify ? decision.identity : trackerID
        identities[serial] = identity
        if let waiting = pending.removeValue(forKey: serial) { galleries?.add(waiting, to: identity) }
        if let replaced = decision.replacedTrack, reidentify { identities.removeValue(forKey: replaced) }
        if let person = people[serial] { personOfIdentity[identity] = person }
        return identity
    }

    /// Keeps a sample for the gallery of the ID `serial` is published as (once it is confirmed).
    private func collect(_ sample: FaceSample, of serial: Int) {
        guard let galleries else { return }
        if let identity = identities[serial] {
            galleries.add(sample, to: identity)
        } else {
            pending[serial, default: TrackGallery()].add(sample)
        }
    }

    /// Names track `serial` from its gallery.
    private func name(_ serial: Int) {
        guard let known, let gallery = index.gallery(of: serial) else { return }
        people[serial] = known.match(gallery)
        if let identity = identities[serial] { personOfIdentity[identity] = people[serial] }
    }

    /// Fills the person and the mask decision of rows leaving the look-ahead (written or hidden).
    func label(_ rows: inout [TrackedFace]) {
        for i in rows.indices {
            let match = rows[i].trackSerial == 0 ? nil : people[rows[i].trackSerial]
            let person = match?.name
            rows[i].person = person
            rows[i].personDistance = match?.distance
            if let keep {
                // Fail safe: only a face named as a kept person goes unmasked.
                rows[i].masked = !(person.map(keep.contains) ?? false)
            } else if let only {
                rows[i].masked = person.map(only.contains) ?? false
            }
        }
    }
}
