/// The known person one track is named as, from a time on: what `--known` writes on each of the
/// track's rows. Rows leave the look-ahead window half a second and more after their frame, so a
/// row takes the name in force at its own time, not the latest: a doubt raised by samples taken
/// later (the mixed pictures as a dissolve begins, a turned head) unnames the rows from just after
/// the last sample that agreed with the gallery, never the rows up to it, which agreeing evidence named.
package struct TrackNames: Sendable {
    package typealias Match = (name: String, distance: Float)

    /// Names from a time on, oldest first (`nil`: no one). Empty until the track is first named or
    /// put in doubt (until then a first name holds from its start); never empty after.
    private var entries: [(since: Double, match: Match?)] = []
    /// From when the track carried its identity at the last update (a split moves it on).
    private var identitySince = -Double.infinity

    /// No name yet.
    package init() {}

    /// The latest decision (for the track's summary).
    package var latest: Match? { entries.last?.match }

    /// Records what the track's gallery says at `time`: `match` when no doubt stands, or a doubt
    /// from `doubtSince` on (`ReidentificationIndex.doubtSince`: no name from then on). A first name holds
    /// from the track's start: the tracker followed one face, and the rows before it are still in
    /// the window when the gallery has its second sample. The track carries its current identity
    /// from `identitySince` (a split: the first sample of the new face); a new name after a split
    /// holds from there, any other change from `time`. A name is taken away only by evidence against
    /// it: a doubt, a split, or a match with someone else; a gallery that merely no longer matches
    /// (`match` nil) keeps it.
    package mutating func update(match: Match?, doubtSince: Double?, identitySince: Double? = nil, time: Double) {
        let split = (identitySince ?? -.infinity) > self.identitySince ? identitySince : nil
        if let identitySince { self.identitySince = max(self.identitySince, identitySince) }
        if let doubtSince {
            if entries.isEmpty || entries.last?.match != nil { append(since: doubtSince, nil) }
            return
        }
        if entries.isEmpty {
            guard let match else { return }
            entries = [(-Double.infinity, match)]
        } else if match == nil, split == nil, entries.last?.match != nil {
            // No evidence against the name: the new samples agreed with the gallery (else a doubt),
            // so the gallery merely moved, by a sample or by a continuation's merged samples, to
            // just beyond the threshold or the margin. One sample does not unname a face.
            return
        } else if match?.name != entries.last?.match?.name {
            append(since: min(split ?? time, time), match)
        } else if let match {
            entries[entries.count - 1].match = match  // the same person; the newest distance
        }
    }

    /// The name in force for a row of `time`.
    package func name(at time: Double) -> Match? {
        entries.last { $0.since <= time }?.match
    }

    /// Forgets the entries no row of `time` or later can take (rows leave in time order).
    package mutating func forget(before time: Double) {
        guard let current = entries.lastIndex(where: { $0.since <= time }), current > 0 else { return }
        entries.removeFirst(current)
    }

    private mutating func append(since: Double, _ match: Match?) {
        entries.removeAll { $0.since >= since }
        entries.append((since, match))
    }
}
