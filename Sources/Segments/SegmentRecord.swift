import FaceCore
import Foundation
import Identity
import Pipeline

/// What a finished segment leaves beside its plan (`SegmentFiles.record`), written last: that it
/// is complete, with which settings and for which outputs it ran, the shot cuts it found, and the
/// face embeddings of each track ID it wrote, so that `stitch` can join its tracks to the other
/// segments' and tell a face that comes back from one seen segments earlier.
package struct SegmentRecord: Codable, Sendable, Equatable {
    /// The record format's version.
    package static let version = 1

    /// The final outputs the segment was run for, as named on its command line (`stitch` writes
    /// them into its `--out` folder under these file names).
    package struct Outputs: Codable, Sendable, Equatable {
        package var video: String?
        package var csv: String?
        package var mot: String?
        package var tracksSummary: String?
        package var landmarks: String?
        package var report: String?

        /// The names of `outputs`.
        package init(_ o: JobOutputs) {
            (video, csv, mot, tracksSummary, landmarks, report) = (o.video, o.csv, o.mot, o.tracksSummary, o.landmarks, o.report)
        }
    }

    /// One track ID's face embeddings (its gallery).
    package struct Identity: Codable, Sendable, Equatable {
        package var id: Int
        package var samples: [Sample]
    }

    /// One embedding and its quality.
    package struct Sample: Codable, Sendable, Equatable {
        package var quality: Double
        package var embedding: [Float]
    }

    /// The format version.
    package var record = SegmentRecord.version
    /// The segment's number, and how many the plan has.
    package var segment: Int, segments: Int
    /// The plan's frames and the segment's, to check it belongs to the plan `stitch` reads.
    package var frames: Int, startFrame: Int, endFrame: Int, decodeFrame: Int
    /// The input, and its size and modification time.
    package var input: String, inputBytes: Int64, inputModified: Int64
    /// Every setting that shapes the result (threads aside), in words: segments stitched together
    /// must agree on it.
    package var settings: String
    /// The settings as the report shows them (label, value).
    package var settingsShown: [[String]]
    /// Re-identification as the run used it: `stitch` continues IDs across segments the same way.
    package var reidentify: Bool, reidThreshold: Double, reidWindow: Double?
    /// The final outputs asked for.
    package var outputs: Outputs
    /// The video part's file name (in the plan's folder), when `-o` was given.
    package var videoPart: String?
    /// The landmarks part's file name, when `--landmarks` was given.
    package var landmarksPart: String?
    /// Frames read (overlaps included) and the last one's number plus one.
    package var framesRead: Int, readEnd: Int
    /// Wall seconds and CPU seconds of the run.
    package var seconds: Double, cpuSeconds: Double?
    /// Face rows written (overlaps included).
    package var faces: Int
    /// The frames shot cuts were found on.
    package var shotCuts: [Int]
    /// Embeddings by track ID.
    package var identities: [Identity]
    /// The calls the run made on its identity ledger, in order, and which tracker serial wrote
    /// each track ID's rows: `stitch` replays them over the whole video (`IdentityReplay`). Nil in
    /// records of an older facetrack.
    package var identityEvents: [IdentityEvent]? = nil
    package var identityRuns: [IdentityRun]? = nil

    /// The galleries by track ID.
    package var galleries: [Int: TrackGallery] {
        var result: [Int: TrackGallery] = [:]
        for identity in identities {
            var gallery = TrackGallery()
            for sample in identity.samples {
                gallery.add(FaceSample(embedding: FaceEmbedding(values: sample.embedding), quality: sample.quality))
            }
            result[identity.id] = gallery
        }
        return result
    }

    /// The samples of `galleries`, by ID.
    package static func identities(_ galleries: [Int: TrackGallery]) -> [Identity] {
        galleries.keys.sorted().map { id in
            Identity(id: id, samples: galleries[id]!.samples.map { Sample(quality: $0.quality, embedding: $0.embedding.values) })
        }
    }

    /// The largest record read.
    static let largestFile = 256 << 20

    /// Writes the record (temporary name, then renamed).
    package func write(to path: String, inputs: [String]) throws {
        let text = try JSONOutput.string(self, snakeCaseKeys: true)
        try AtomicOutput.write(Data((text + "\n").utf8), to: path, inputs: inputs)
    }

    /// Reads a record; nil when there is none (the segment has not finished).
    package static func read(_ path: String) throws -> SegmentRecord? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard info.st_size <= largestFile else { throw SegmentError.badRecord(path, reason: "too large for a segment record") }
        let data = try SegmentError.read(path)
        guard let record = try? JSONDecoder.snakeCase.decode(SegmentRecord.self, from: data) else {
            throw SegmentError.badRecord(path, reason: "not a segment record (delete it and run the segment again)")
        }
        guard record.record == version else {
            throw SegmentError.badRecord(path, reason: "record version \(record.record); this facetrack reads version \(version)")
        }
        return record
    }
}
