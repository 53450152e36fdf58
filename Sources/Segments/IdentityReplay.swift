import FaceCore
import Identity
import Pipeline
import Report

/// The whole video's identities for a stitch with re-identification: each segment recorded the
/// calls its tracking stage made on its `IdentityLedger` (faces observed with their embeddings,
/// tracks decided, ended, shot cuts), and these are made again on one ledger, in frame order, each
/// segment's from its first own frame to the next seam. So an identity is continued or split on
/// the same evidence, against the same earlier faces, as in one run, rather than within each
/// segment's stretch only.
///
/// At a seam, a track of the later segment that continues one of the earlier (`SeamMatcher`, on
/// the rows both wrote in the overlap) goes on as that track; an earlier track that none continues
/// ends there; a later track that none continues brings its calls from the overlap along. A row
/// is found by its segment, written ID and frame (`IdentityRun`: which tracker serial wrote it).
package struct IdentityReplay {
    private var ledger: IdentityLedger
    /// Per segment: tracker serial → the serial on the replayed ledger.
    private var keys: [[Int: Int]]
    private var nextKey = 1
    /// Per segment: written ID → its runs, in frame order.
    private let runs: [[Int: [IdentityRun]]]
    /// Tracks continued across a seam by their boxes.
    package private(set) var continuedAcrossSeams = 0

    /// The replay of `records`' calls; nil when a record has none (written by an older facetrack,
    /// or without re-identification).
    package init?(plan: SplitPlan, records: [SegmentRecord], files: SegmentFiles) throws {
        guard records[0].reidentify, records.allSatisfy({ $0.identityEvents != nil && $0.identityRuns != nil }) else { return nil }
        var settings = ReidentificationSettings()
        settings.threshold = Float(records[0].reidThreshold)
        settings.window = records[0].reidWindow
        ledger = IdentityLedger(settings: settings, reidentify: true)
        keys = Array(repeating: [:], count: records.count)
        runs = records.map { record in Dictionary(grouping: record.identityRuns ?? [], by: \.id) }

        var live: Set<Int> = []
        var tail: [SeamRow] = []
        for k in records.indices {
            let events = records[k].identityEvents ?? []
            let own = plan.segments[k]
            let next = k + 1 < records.count ? plan.segments[k + 1].decodeFrame : Int.max
            let (head, following) = try Self.seamRows(files.csv(k), head: k > 0 ? records[k - 1].readEnd : Int.min,
                                                      tail: next, serials: runs[k])
            if k > 0 {
                try seam(into: k, events: events, earlierEvents: records[k - 1].identityEvents ?? [], start: own.startFrame,
                         earlier: tail, later: head, live: &live)
            }
            tail = following
            for event in events where own.frames.contains(event.frame) {
                let serial = event.serial.map { key(k, $0) }
                Self.track(event, serial: serial, live: &live)
                ledger.apply(event, serial: serial)
            }
        }
    }

    /// The identity of the row segment `k` wrote as `id` on frame `frame` at `time`; nil when the
    /// replay does not know it.
    package func identity(segment k: Int, id: Int, frame: Int, time: Double) -> Int? {
        guard let run = Self.run(of: id, frame: frame, in: runs[k]), let key = keys[k][run.serial] else {
            return nil
        }
        return ledger.identity(of: key, at: time, publishedAt: frame + run.lag)
    }

    /// Hands segment `k`'s tracks over from segment `k - 1`'s at the seam (frame `start`).
    private mutating func seam(into k: Int, events: [IdentityEvent], earlierEvents: [IdentityEvent], start: Int,
                               earlier: [SeamRow], later: [SeamRow], live: inout Set<Int>) throws {
        ledger.frame = start
        var continued: Set<Int> = []
        for match in SeamMatcher.matches(earlier: earlier, later: later) where keys[k][match.later] == nil {
            if let key = keys[k - 1][match.earlier] {
                guard live.contains(key) else { continue }
                keys[k][match.later] = key
                continued.insert(key)
                continuedAcrossSeams += 1
            } else {
                // The earlier track's calls all came after the seam (its rows before it are the
                // look-back's): its rows take the later track's identity.
                keys[k - 1][match.earlier] = key(k, match.later)
            }
        }
        // An earlier track that goes on past the seam in no later one ends there, published first
        // when its segment published it (later on).
        let earlierDecisions = Self.decisions(earlierEvents)
        for (serial, key) in keys[k - 1].sorted(by: { $0.key < $1.key }) where live.contains(key) && !continued.contains(key) {
            if !ledger.isDecided(key), let time = earlierDecisions[serial] { ledger.decide(key, time: time) }
            ledger.end(key)
            live.remove(key)
        }
        // A continued track that its segment published before the seam, while the earlier had not yet.
        for event in events where event.frame < start && event.kind == .decide {
            if let serial = event.serial, let key = keys[k][serial], !ledger.isDecided(key) { ledger.decide(key, time: event.time) }
        }
        // A later track that continues none and is still there at the seam brings its calls from
        // the overlap (one that ended before, the earlier segment had as well).
        var alive: Set<Int> = []
        for event in events where event.frame < start { Self.track(event, serial: event.serial, live: &alive) }
        for event in events where event.frame < start && event.kind != .cut {
            guard let serial = event.serial, alive.contains(serial),
                  keys[k][serial].map({ !continued.contains($0) }) ?? true else { continue }
            let key = key(k, serial)
            Self.track(event, serial: key, live: &live)
            ledger.apply(event, serial: key)
        }
    }

    /// The replayed ledger's serial for segment `k`'s tracker serial `serial` (new on first use).
    private mutating func key(_ k: Int, _ serial: Int) -> Int {
        if let key = keys[k][serial] { return key }
        keys[k][serial] = nextKey
        nextKey += 1
        return nextKey - 1
    }

    /// Follows which tracks are live.
    private static func track(_ event: IdentityEvent, serial: Int?, live: inout Set<Int>) {
        switch event.kind {
        case .observe: if let serial { live.insert(serial) }
        case .end: if let serial { live.remove(serial) }
        case .cut: live.removeAll()
        case .decide: break
        }
    }

    /// Each serial's decision time in `events`.
    private static func decisions(_ events: [IdentityEvent]) -> [Int: Double] {
        var times: [Int: Double] = [:]
        for event in events where event.kind == .decide {
            if let serial = event.serial, times[serial] == nil { times[serial] = event.time }
        }
        return times
    }

    /// The run in which `id` was written on `frame` (its tracker serial and publication lag).
    private static func run(of id: Int, frame: Int, in runs: [Int: [IdentityRun]]) -> IdentityRun? {
        runs[id]?.first { $0.first <= frame && frame <= $0.last }
    }

    /// The rows of the CSV at `path` before frame `head` and from frame `tail` on, by tracker serial.
    private static func seamRows(_ path: String, head: Int, tail: Int, serials: [Int: [IdentityRun]]) throws
        -> (head: [SeamRow], tail: [SeamRow]) {
        var reader = try CSVReader(path: path)
        try reader.require(["frame", "track_id", "x", "y", "width", "height"])
        let frameColumn = reader.column("frame"), idColumn = reader.column("track_id")
        let boxColumns = ["x", "y", "width", "height"].map { (reader.column($0), $0) }
        var before: [SeamRow] = [], after: [SeamRow] = []
        while reader.next() {
            guard let frame = try reader.int(frameColumn, "frame"), frame < head || frame >= tail,
                  let id = try reader.int(idColumn, "track_id"), let serial = run(of: id, frame: frame, in: serials)?.serial else {
                continue
            }
            let v = try boxColumns.map { try reader.double($0.0, $0.1) ?? 0 }
            let row = SeamRow(frame: frame, id: serial, box: Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
            if frame < head { before.append(row) } else { after.append(row) }
        }
        return (before, after)
    }
}
