import FaceCore
import Foundation
import Identity
import MediaIO
import Pipeline
@testable import Segments
import TestSupport
import XCTest

/// `stitch` with re-identification: the segments' recorded identity calls, replayed over the
/// whole video, give the identities one run gives, including decisions a segment could not make
/// alone (a face that is too close to two earlier people to say which, so one run gives it a new
/// identity; the old per-seam matching of galleries continued the closer one).
final class IdentityReplayTests: XCTestCase {
    /// Unit vectors: `center` and two people on either side of it, 0.29 from it and 0.57 apart.
    private let center: [Float] = [1] + Array(repeating: 0, count: 127)
    private var left: [Float] { normalized([1, 0.3] + Array(repeating: 0, count: 126)) }
    private var right: [Float] { normalized([1, -0.3] + Array(repeating: 0, count: 126)) }
    private let other: [Float] = [0, 0, 1] + Array(repeating: 0, count: 125)

    private func normalized(_ v: [Float]) -> [Float] {
        let norm = v.map { $0 * $0 }.reduce(0, +).squareRoot()
        return v.map { $0 / norm }
    }

    private struct Appearance {
        var person: [Float]
        var frames: Range<Int>
        var x: Double
    }

    /// One run over `frames` (10 per second) as the tracking stage drives its ledger: each face
    /// observed on every frame (embedded when the index asks), published 5 frames after it appears
    /// (or when it ends), ended when it leaves. Returns the calls, the rows' runs and the CSV.
    private func run(_ appearances: [Appearance], frames: Range<Int>) -> (events: [IdentityEvent], runs: [IdentityRun], csv: String,
                                                                          ids: [Int: [Int: Int]]) {
        let recording = IdentityGalleries()
        var ledger = IdentityLedger(settings: ReidentificationSettings(), reidentify: true, recording: recording)
        let tracks = appearances.map { a in (a, a.frames.clamped(to: frames)) }.filter { !$0.1.isEmpty }
        var ids: [Int: [Int: Int]] = [:]   // frame → x → id
        for frame in frames {
            ledger.frame = frame
            let time = Double(frame) / 10
            for (serial, (appearance, span)) in tracks.enumerated() where span.upperBound == frame {
                ledger.decide(serial + 1, time: time)
                ledger.end(serial + 1)
                _ = appearance
            }
            for (serial, (appearance, span)) in tracks.enumerated() where span.contains(frame) {
                let sample = ledger.index.wantsSample(track: serial + 1, time: time)
                    ? FaceSample(embedding: FaceEmbedding(values: appearance.person), quality: 0.8) : nil
                ledger.observe(serial + 1, sample: sample, time: time)
                if frame == span.lowerBound + 5 { ledger.decide(serial + 1, time: time) }
            }
        }
        var csv = "frame,time,track_id,x,y,width,height\n"
        for frame in frames {
            for (serial, (appearance, span)) in tracks.enumerated() where span.contains(frame) {
                guard let id = ledger.identity(of: serial + 1, at: Double(frame) / 10) else { continue }
                recording.recordRow(frame: frame, id: id, serial: serial + 1, publishedAt: frames.upperBound)
                csv += "\(frame),\(Double(frame) / 10),\(id),\(appearance.x),10,40,50\n"
                ids[frame, default: [:]][Int(appearance.x)] = id
            }
        }
        return (recording.events, recording.runs, csv, ids)
    }

    func testReplayedSegmentsGiveOneRunsIdentities() throws {
        let appearances = [Appearance(person: left, frames: 0..<30, x: 100), Appearance(person: right, frames: 40..<70, x: 100),
                           Appearance(person: other, frames: 60..<140, x: 300), Appearance(person: center, frames: 150..<180, x: 100)]
        let whole = run(appearances, frames: 0..<200)
        let leftID = whole.ids[10]![100]!, rightID = whole.ids[50]![100]!, centerID = whole.ids[160]![100]!
        XCTAssertNotEqual(leftID, rightID)
        XCTAssertFalse([leftID, rightID].contains(centerID), "one run: too close to both to say which")

        let folder = try TemporaryFolder()
        let planPath = folder.file("p.jsonl")
        let files = SegmentFiles(plan: planPath, count: 2)
        let segments = [(decode: 0, start: 0, end: 100, readEnd: 110), (decode: 80, start: 100, end: 200, readEnd: 200)]
        var records: [SegmentRecord] = []
        for (k, s) in segments.enumerated() {
            let part = run(appearances, frames: s.decode..<s.readEnd)
            try part.csv.write(toFile: files.csv(k), atomically: true, encoding: .utf8)
            records.append(SegmentRecord(
                segment: k, segments: 2, frames: 200, startFrame: s.start, endFrame: s.end, decodeFrame: s.decode, input: "in.mp4",
                inputBytes: 1, inputModified: 1, settings: "", settingsShown: [], reidentify: true, reidThreshold: 0.4,
                reidWindow: nil, outputs: SegmentRecord.Outputs(JobOutputs(csv: "faces.csv")), videoPart: nil, landmarksPart: nil,
                framesRead: s.readEnd - s.decode, readEnd: s.readEnd, seconds: 1, cpuSeconds: nil, faces: 0, shotCuts: [],
                identities: [], identityEvents: part.events, identityRuns: part.runs))
        }
        let plan = SplitPlan(input: "in.mp4", inputBytes: 1, inputModified: 1, frames: 200, timeBase: TimeBase(num: 1, den: 10),
                             framesPerSecond: 10, overlap: 2, segments: segments.enumerated().map { k, s in
            SplitPlan.Segment(segment: k, startFrame: s.start, endFrame: s.end, startPTS: Int64(s.start),
                              startTime: Double(s.start) / 10, endTime: Double(s.end) / 10, decodeFrame: s.decode,
                              decodePTS: Int64(s.decode), decodeDTS: Int64(s.decode), decodeTime: Double(s.decode) / 10)
        })
        let replay = try XCTUnwrap(IdentityReplay(plan: plan, records: records, files: files))
        XCTAssertEqual(replay.continuedAcrossSeams, 1, "the face on the right goes on across the seam")
        for (k, s) in segments.enumerated() {
            let part = run(appearances, frames: s.decode..<s.readEnd)
            for frame in s.start..<s.end {
                for (x, id) in part.ids[frame] ?? [:] {
                    XCTAssertEqual(replay.identity(segment: k, id: id, frame: frame, time: Double(frame) / 10), whole.ids[frame]?[x],
                                   "segment \(k), frame \(frame), face at \(x)")
                }
            }
        }
        // The old matching continued the centre face as the closer of the two (what changed).
        var assigner = IdentityAssigner(reidentification: .init(threshold: 0.4, window: nil, framesPerSecond: 10))
        func gallery(_ v: [Float]) -> TrackGallery {
            var g = TrackGallery()
            g.add(FaceSample(embedding: FaceEmbedding(values: v), quality: 0.8))
            return g
        }
        _ = assigner.assign([.init(id: 1, first: 0, last: 29, gallery: gallery(left)), .init(id: 2, first: 40, last: 69, gallery: gallery(right))],
                            matches: [])
        XCTAssertLessThan(try XCTUnwrap(assigner.assign([.init(id: 1, first: 150, last: 179, gallery: gallery(center))], matches: [])[1]), 2)
    }
}
