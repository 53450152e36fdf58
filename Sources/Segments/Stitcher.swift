import FaceCore
import Foundation
import MediaIO
import Pipeline
import Report
import Tracking

/// Joins the segments of a split plan into the outputs of one run (`facetrack stitch`, and the end
/// of `process --jobs`): each segment's own frames are taken from its CSV, its track IDs replaced
/// by IDs for the whole video (`IdentityAssigner`: continued across each seam by the boxes both
/// segments found in the overlap, or by embeddings, else new), numbered 1, 2, 3... in order of
/// first appearance; the MOT file, track summary, landmarks and report are written from those
/// rows; the video parts are joined by stream copy with the original's audio (`VideoJoiner`).
///
/// Reads one segment's CSV at a time and keeps only the rows of the overlap in between, so memory
/// stays flat however long the video. Every output is written under a temporary name and renamed
/// when complete; none may name the input, the plan or a part.
package struct Stitcher {
    /// The plan and its segments' files.
    package let plan: SplitPlan
    package let files: SegmentFiles

    /// Reads the plan at `planPath`.
    package init(planPath: String) throws {
        plan = try SplitPlan(path: planPath)
        files = SegmentFiles(plan: planPath, count: plan.segments.count)
    }

    /// What a stitch did.
    package struct Summary: Sendable {
        /// Segments joined, frames, face rows and track IDs written.
        package var segments = 0, frames = 0, faces = 0, tracks = 0
        /// Tracks of a later segment continued across a seam by their boxes, and by their embeddings.
        package var continuedByBoxes = 0, continuedByEmbeddings = 0
        /// Wall and CPU seconds the segments took (summed over them).
        package var segmentSeconds = 0.0, segmentCPUSeconds = 0.0
        /// The video's frames written, when there is a video.
        package var videoFrames: Int?
        /// The outputs written.
        package var written: [String] = []
    }

    /// The segments whose record is missing or does not fit the plan (never run, failed, killed).
    package func unfinishedSegments() -> [Int] {
        plan.segments.indices.filter { k in ((try? SegmentRecord.read(files.record(k))) ?? nil).map { !fits($0, k) } ?? true }
    }

    /// Whether `record` belongs to segment `k` of this plan.
    private func fits(_ record: SegmentRecord, _ k: Int) -> Bool {
        let own = plan.segments[k]
        return record.segment == k && record.segments == plan.segments.count && record.frames == plan.frames
            && record.startFrame == own.startFrame && record.endFrame == own.endFrame && record.decodeFrame == own.decodeFrame
            && record.inputBytes == plan.inputBytes && record.inputModified == plan.inputModified
    }

    /// Every segment's record; throws naming the missing segments, or a record that disagrees
    /// with the first one on the settings or the outputs.
    package func records() throws -> [SegmentRecord] {
        let missing = unfinishedSegments()
        guard missing.isEmpty else { throw SegmentError.missingSegments(files.plan, missing, count: plan.segments.count) }
        let records = try plan.segments.indices.map { try SegmentRecord.read(files.record($0))! }
        for (k, record) in records.enumerated().dropFirst() {
            if record.settings != records[0].settings {
                throw SegmentError.badRecord(files.record(k), reason: "segment \(k) ran with other settings than segment 0 "
                                             + "(detector, tracking, identity, overlay or encoder options); "
                                             + "run it again with the same options")
            }
            if record.outputs != records[0].outputs {
                throw SegmentError.badRecord(files.record(k), reason: "segment \(k) was run for other outputs than segment 0 "
                                             + "(-o, --csv, --mot, --tracks-summary, --landmarks, --report); "
                                             + "run it again with the same ones")
            }
        }
        return records
    }

    /// The outputs `stitch --out DIR` writes: the names the segments were run with (their file
    /// names), in `folder`; the CSV always (the input's name with .csv when none was named).
    package func outputs(in folder: String, records: [SegmentRecord]) -> JobOutputs {
        let named = records[0].outputs
        func place(_ path: String?) -> String? {
            path.map { (folder as NSString).appendingPathComponent(($0 as NSString).lastPathComponent) }
        }
        let stem = ((plan.input as NSString).lastPathComponent as NSString).deletingPathExtension
        return JobOutputs(video: place(named.video), csv: place(named.csv ?? stem + ".csv"), mot: place(named.mot),
                          tracksSummary: place(named.tracksSummary), landmarks: place(named.landmarks),
                          report: place(named.report))
    }

    /// Writes `outputs` from the segments (a video only when the segments have video parts).
    package func stitch(into outputs: JobOutputs, records: [SegmentRecord]) throws -> Summary {
        try plan.checkInput(plan.input)
        let partFiles = records.indices.flatMap { k in
            [files.record(k), files.csv(k)] + [records[k].videoPart, records[k].landmarksPart].compactMap { $0 }.map(inFolder)
        }
        let parts = ([files.plan] + partFiles).map { ReadFile(path: $0, role: "a part of the split plan") }
        try outputs.checkDistinct(input: plan.input, readFiles: parts)
        let inputs = [plan.input, files.plan] + partFiles
        let csvPath = outputs.csv ?? (files.folder as NSString).appendingPathComponent(".stitch-\(getpid()).csv")
        // Every text output is opened (under a temporary name) before any work.
        let csv = try BufferedTextFile(path: csvPath, inputs: inputs)
        let mot = try outputs.mot.map { try MOTChallengeWriter(path: $0, inputs: inputs) }
        let landmarks = try outputs.landmarks.map { try BufferedTextFile(path: $0, inputs: inputs) }
        let report = try outputs.report.map { try BufferedTextFile(path: $0, inputs: inputs) }
        if let path = outputs.tracksSummary { _ = try AtomicOutput(path: path, inputs: inputs) }
        guard outputs.video == nil || records.allSatisfy({ $0.videoPart != nil }) else {
            throw SegmentError.badRecord(files.record(0),
                                         reason: "the segments were run without -o: there are no video parts to join")
        }
        guard outputs.landmarks == nil || records.allSatisfy({ $0.landmarksPart != nil }) else {
            throw SegmentError.badRecord(files.record(0),
                                         reason: "the segments were run without --landmarks: no landmarks to join")
        }

        var summary = Summary()
        var written: [String] = []
        do {
            var rows = RowStitcher(plan: plan, records: records, csv: csv, mot: mot,
                                   replay: try IdentityReplay(plan: plan, records: records, files: files))
            for k in records.indices {
                try rows.add(segment: k, csvPath: files.csv(k))
                if let landmarks, let part = records[k].landmarksPart {
                    try rows.addLandmarks(segment: k, path: inFolder(part), to: landmarks)
                }
            }
            summary = rows.summary
            try csv.finish()
            if outputs.csv != nil { written.append(csvPath) }
            try mot?.finish()
            if let path = outputs.mot { written.append(path) }
            try landmarks?.finish()
            if let path = outputs.landmarks { written.append(path) }
            if let path = outputs.tracksSummary {
                try TrackSummaryWriter.write(rows.trackingSummary, to: path, inputs: inputs)
                written.append(path)
            }
            summary.segmentSeconds = records.reduce(0) { $0 + $1.seconds }
            summary.segmentCPUSeconds = records.reduce(0) { $0 + ($1.cpuSeconds ?? 0) }
            if let path = outputs.video {
                let parts = plan.segments.indices.map { k in
                    VideoJoiner.Part(path: inFolder(records[k].videoPart!), firstPTS: plan.segments[k].startPTS,
                                     frames: plan.segments[k].endFrame - plan.segments[k].startFrame)
                }
                let joined = try VideoJoiner.join(parts, timeBase: plan.timeBase, audioFrom: plan.input, to: path, inputs: inputs)
                summary.videoFrames = joined.frames
                written.append(path)
            }
            if let report, let path = outputs.report {
                var details = ReportDetails(input: plan.input)
                details.settings = records[0].settingsShown.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
                details.run = Self.describe(summary, plan: plan)
                let faces = try FaceRows(path: csvPath)
                _ = try ReportBuilder.write(faces, video: plan.input, details: details, to: report)
                written.append(path)
            }
        } catch {
            for path in written where path != csvPath || outputs.csv != nil { unlink(path) }
            throw error
        }
        if outputs.csv == nil { unlink(csvPath) }
        summary.written = written
        return summary
    }

    /// The run's lines of the report.
    static func describe(_ s: Summary, plan: SplitPlan) -> [(String, String)] {
        [("Segments", String(format: "%d segments, overlap %.1f s; processing %.1f s in all (CPU %.1f s)",
                             s.segments, plan.overlap,
                             s.segmentSeconds, s.segmentCPUSeconds)),
         ("Stitch", "\(s.continuedByBoxes) tracks continued across a seam by their boxes, \(s.continuedByEmbeddings) by their "
                    + "embeddings; \(s.tracks) track IDs in all")]
    }

    private func inFolder(_ name: String) -> String { (files.folder as NSString).appendingPathComponent(name) }
}

/// The rows half of a stitch, segment after segment (see `Stitcher`).
private struct RowStitcher {
    let plan: SplitPlan
    let records: [SegmentRecord]
    let csv: BufferedTextFile
    let mot: MOTChallengeWriter?
    var assigner: IdentityAssigner
    /// The whole video's identities replayed from the segments' calls (with re-identification).
    let replay: IdentityReplay?
    /// The segment being written.
    var segment = 0
    /// The numbers written for its rows, by frame and its own track ID (for its landmarks).
    var written: [Pair: Int] = [:]
    struct Pair: Hashable { var frame: Int, id: Int }
    /// The previous segment's rows on the frames the next one also read.
    var carried: [SeamRow] = []
    /// This segment's track IDs → identity.
    var identityOf: [Int: Int] = [:]
    /// Identity → the number written (1, 2, 3... in order of first appearance).
    var numbers: [Int: Int] = [:]
    var header: [String]?
    /// Shot cuts over the whole video (each segment's own), for the `shot` column.
    let cuts: [Int]
    var statistics = TrackStatistics()
    var people: [Int: String] = [:]
    var summary = Stitcher.Summary()

    init(plan: SplitPlan, records: [SegmentRecord], csv: BufferedTextFile, mot: MOTChallengeWriter?, replay: IdentityReplay?) {
        self.plan = plan
        self.replay = replay
        self.records = records
        self.csv = csv
        self.mot = mot
        let fps = plan.framesPerSecond ?? VideoTiming.assumedFramesPerSecond
        assigner = IdentityAssigner(reidentification: records[0].reidentify
            ? .init(threshold: records[0].reidThreshold, window: records[0].reidWindow, framesPerSecond: fps) : nil)
        cuts = records.indices.flatMap { k in records[k].shotCuts.filter { plan.segments[k].frames.contains($0) } }.sorted()
        summary.segments = records.count
        summary.frames = plan.frames
    }

    /// The summaries of the tracks written.
    var trackingSummary: TrackingSummary {
        var tracks = statistics.summaries
        for i in tracks.indices { tracks[i].person = people[tracks[i].id] }
        return TrackingSummary(confirmedTrackCount: tracks.count, longestTrackFrameCount: statistics.longestTrackFrameCount,
                               droppedDetectionCount: 0, tracks: tracks)
    }

    /// Reads segment `k`'s CSV: matches its tracks with the previous segment's at the seam, gives
    /// them their identities and writes its own frames' rows.
    mutating func add(segment k: Int, csvPath: String) throws {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try FileBytes.read(csvPath))
        } catch let error as FileReadError {
            throw SegmentError.cannotRead(csvPath, reason: error.reason)
        }
        var reader = try CSVReader(bytes: bytes, path: csvPath)
        try reader.require(["frame", "track_id", "x", "y", "width", "height"])
        if let header, header != reader.header {
            throw SegmentError.badRecord(csvPath, reason: "its columns differ from the first segment's")
        }
        if header == nil {
            header = reader.header
            csv.buffer += reader.header.map(Self.quoted).joined(separator: ",") + "\n"
        }
        let own = plan.segments[k]
        let next = k + 1 < plan.segments.count ? plan.segments[k + 1].decodeFrame : Int.max
        let frameColumn = reader.column("frame"), idColumn = reader.column("track_id")
        let boxColumns = Self.boxNames.map { (reader.column($0), $0) }

        // First pass: the rows the seams need, and each track's span among the segment's own frames.
        var seam: [SeamRow] = [], following: [SeamRow] = []
        var spans: [Int: ClosedRange<Int>] = [:]
        while reader.next() {
            guard let frame = try reader.int(frameColumn, "frame"), let id = try reader.int(idColumn, "track_id") else {
                continue
            }
            let values = try boxColumns.map { try reader.double($0.0, $0.1) ?? 0 }
            let row = SeamRow(frame: frame, id: id, box: Rect(x: values[0], y: values[1], width: values[2], height: values[3]))
            if k > 0 && frame < records[k - 1].readEnd { seam.append(row) }
            if frame >= next { following.append(row) }
            if own.frames.contains(frame) {
                spans[id] = spans[id].map { min($0.lowerBound, frame)...max($0.upperBound, frame) } ?? frame...frame
            }
        }
        if let replay {
            // The replay decided every identity already; the seam assigner is for records without one.
            (summary.continuedByBoxes, summary.continuedByEmbeddings) = (replay.continuedAcrossSeams, 0)
        } else {
            let matches = k == 0 ? [] : SeamMatcher.matches(earlier: carried, later: seam)
            let galleries = records[k].galleries
            let tracks = spans.map { IdentityAssigner.Track(id: $0.key, first: $0.value.lowerBound, last: $0.value.upperBound,
                                                            gallery: galleries[$0.key]) }
            identityOf = assigner.assign(tracks, matches: matches)
            (summary.continuedByBoxes, summary.continuedByEmbeddings) = (assigner.continuedByBoxes, assigner.continuedByEmbeddings)
        }
        carried = following
        segment = k
        written.removeAll(keepingCapacity: true)

        // Second pass: the segment's own frames, IDs replaced.
        try write(CSVReader(bytes: bytes, path: csvPath), frames: own.frames)
    }

    /// Writes the rows of `frames` from `reader` (positioned after its header).
    private mutating func write(_ reader: CSVReader, frames: Range<Int>) throws {
        var reader = reader
        let frameColumn = reader.column("frame"), idColumn = reader.column("track_id"), shotColumn = reader.column("shot")
        let timeColumn = reader.column("time"), confidenceColumn = reader.column("confidence")
        let sourceColumn = reader.column("source"), personColumn = reader.column("person")
        let boxColumns = Self.boxNames.map { (reader.column($0), $0) }
        var frameRows: [TrackedFace] = []
        var current: (frame: Int, time: Double)?
        func flushFrame() throws {
            guard let done = current else { return }
            statistics.add(frame: done.frame, time: done.time, rows: frameRows)
            try mot?.write(frameIndex: done.frame, faces: frameRows)
            frameRows.removeAll(keepingCapacity: true)
        }
        while reader.next() {
            guard let frame = try reader.int(frameColumn, "frame"), frames.contains(frame) else { continue }
            let time = try reader.double(timeColumn, "time") ?? 0
            let own = try reader.int(idColumn, "track_id")
            let id = own.map { number(for: $0, frame: frame, time: time) }
            if let own, let id { written[Pair(frame: frame, id: own)] = id }
            var fields = (0..<reader.fieldCount).map { reader.string($0) }
            if let idColumn, idColumn < fields.count { fields[idColumn] = id.map(String.init) ?? "" }
            if let shotColumn, shotColumn < fields.count, !reader.isEmpty(shotColumn) {
                fields[shotColumn] = String(shot(of: frame))
            }
            csv.buffer += fields.map(Self.quoted).joined(separator: ",") + "\n"
            try csv.flushIfFull()
            summary.faces += 1

            if current?.frame != frame {
                try flushFrame()
                current = (frame, time)
            }
            let values = try boxColumns.map { try reader.double($0.0, $0.1) ?? 0 }
            let observation = FaceObservation(bounds: Rect(x: values[0], y: values[1], width: values[2], height: values[3]),
                                              confidence: try reader.double(confidenceColumn, "confidence") ?? 1)
            let source = sourceColumn.flatMap { reader.isEmpty($0) ? nil : ObservationSource(rawValue: reader.string($0)) }
            var face = TrackedFace(observation: observation, trackID: id, source: source ?? .detected)
            face.trackSerial = id ?? 0
            frameRows.append(face)
            if let id, let personColumn, !reader.isEmpty(personColumn), people[id] == nil {
                people[id] = reader.string(personColumn)
            }
        }
        try flushFrame()
        summary.tracks = numbers.count
    }

    /// Copies segment `k`'s landmark rows of its own frames, IDs replaced.
    mutating func addLandmarks(segment k: Int, path: String, to output: BufferedTextFile) throws {
        var reader = try CSVReader(path: path)
        try reader.require(["frame", "track_id"])
        if k == 0 { output.buffer += reader.header.map(Self.quoted).joined(separator: ",") + "\n" }
        let frameColumn = reader.column("frame"), idColumn = reader.column("track_id")
        let frames = plan.segments[k].frames
        while reader.next() {
            guard let frame = try reader.int(frameColumn, "frame"), frames.contains(frame) else { continue }
            var fields = (0..<reader.fieldCount).map { reader.string($0) }
            if let idColumn, idColumn < fields.count {
                // The number the row of its face got (a landmark row without one: its track's first).
                fields[idColumn] = try reader.int(idColumn, "track_id").map {
                    String(written[Pair(frame: frame, id: $0)] ?? number(for: $0, frame: frame, time: -Double.infinity))
                } ?? ""
            }
            output.buffer += fields.map(Self.quoted).joined(separator: ",") + "\n"
            try output.flushIfFull()
        }
    }

    /// The number written for the current segment's track `id` on `frame` at `time`.
    private mutating func number(for id: Int, frame: Int, time: Double) -> Int {
        let identity: Int
        if let replay {
            // A row the replay does not know keeps an identity of its own (never one replayed).
            identity = replay.identity(segment: segment, id: id, frame: frame, time: time) ?? -1 - segment - records.count * id
        } else {
            identity = identityOf[id] ?? -1 - id
        }
        if let number = numbers[identity] { return number }
        numbers[identity] = numbers.count + 1
        return numbers.count
    }

    /// The shot of `frame` in the whole video: the cuts at or before it.
    private func shot(of frame: Int) -> Int {
        var low = 0, high = cuts.count
        while low < high {
            let middle = (low + high) / 2
            if cuts[middle] <= frame { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The box's columns.
    static let boxNames = ["x", "y", "width", "height"]

    /// A field quoted as RFC 4180 asks.
    static func quoted(_ field: String) -> String { TrackCSVWriter.quoted(field) }
}
