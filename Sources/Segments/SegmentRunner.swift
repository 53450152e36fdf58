import FaceCore
import Foundation
import MediaIO
import Pipeline
import Rendering

/// Runs one segment of a split plan (`facetrack process INPUT --segment K --plan PLAN`): reads from
/// the segment's key frame through its overlap, its own frames and a short tail, writes its tracks
/// CSV (every frame read, numbered as in the whole video), its video part (its own frames only,
/// encoded to join by stream copy) and last its record with the embeddings of each track ID.
package struct SegmentRunner {
    /// The plan and where it is.
    package let plan: SplitPlan
    package let files: SegmentFiles
    /// The segment's number.
    package let segment: Int
    /// The job: input, settings, and the final outputs the stitch will write (as named).
    package let job: FaceTrackJob

    /// Reads nothing yet: checks that `segment` is one of the plan's and that the options can be
    /// split (labels draw track IDs, which are global only after the stitch; outputs to standard
    /// output or as still images cannot be joined).
    package init(plan: SplitPlan, planPath: String, segment: Int, job: FaceTrackJob) throws {
        guard plan.segments.indices.contains(segment) else {
            throw SegmentError.noSuchSegment(planPath, segment: segment, count: plan.segments.count)
        }
        if job.outputs.video != nil, job.overlay.kinds.contains(.labels) {
            throw SegmentOptionError("--overlay labels draws track IDs, which are only known for the whole video after "
                                     + "stitch: leave labels out, or process the file in one run")
        }
        for (name, path) in [("--csv", job.outputs.csv), ("-o", job.outputs.video), ("--mot", job.outputs.mot),
                             ("--landmarks", job.outputs.landmarks), ("--tracks-summary", job.outputs.tracksSummary),
                             ("--report", job.outputs.report)] where path == "-" {
            throw SegmentOptionError("\(name) -: a segment's outputs are written by stitch into files; name a file")
        }
        if let video = job.outputs.video, StillImageWriter.isStillImage(video) || (video as NSString).pathExtension.isEmpty {
            throw SegmentOptionError("-o \(video): a segment's video part must be a video container (.mp4, .mkv, .mov...)")
        }
        self.plan = plan
        files = SegmentFiles(plan: planPath, count: plan.segments.count)
        self.segment = segment
        self.job = job
    }

    /// The frames read after the segment's own, so that the look-ahead has decided its last
    /// frames as a single run would, and `stitch` has rows on both sides of the seam to match:
    /// the half-second look-ahead and a second more, which also covers the second-long window of
    /// tiled and --anonymize runs (30 frames at 25 fps of the 43) with frames to spare for the seam.
    var tailFrames: Int {
        let fps = plan.framesPerSecond ?? VideoTiming.assumedFramesPerSecond
        let lookahead = max(job.tracking.minHits + 2, job.detection.detectEvery + 1) + Int((fps / 2).rounded())
        return lookahead + Int(fps.rounded(.up))
    }

    /// The record this run writes, as it must look to count as done: its settings and outputs.
    var settings: String { SegmentRunner.settings(of: job) }

    /// The final outputs as recorded.
    var outputs: SegmentRecord.Outputs { SegmentRecord.Outputs(job.outputs) }

    /// The record of an earlier run of this segment with the same plan, settings and outputs,
    /// whose files are all there; nil when the segment has to run.
    package func finishedRecord() throws -> SegmentRecord? {
        guard let record = try SegmentRecord.read(files.record(segment)) else { return nil }
        let own = plan.segments[segment]
        guard record.segment == segment, record.segments == plan.segments.count, record.startFrame == own.startFrame,
              record.endFrame == own.endFrame, record.decodeFrame == own.decodeFrame, record.inputBytes == plan.inputBytes,
              record.inputModified == plan.inputModified, record.settings == settings, record.outputs == outputs
        else { return nil }
        let parts = [files.csv(segment)] + [record.videoPart, record.landmarksPart].compactMap { $0 }.map(folderPath)
        return parts.allSatisfy { FileManager.default.fileExists(atPath: $0) } ? record : nil
    }

    private func folderPath(_ name: String) -> String { (files.folder as NSString).appendingPathComponent(name) }

    /// Runs the segment; returns its record (also written) and the run's summary. A run that ends
    /// early (interrupted, or the file shorter than planned) writes no record and leaves no part.
    package func run(progress: (@Sendable (JobProgress) -> Void)? = nil, stop: StopSignal = StopSignal()) throws
        -> (record: SegmentRecord, summary: ProcessingSummary) {
        try plan.checkInput(job.input)
        let own = plan.segments[segment]
        let readEnd = min(own.endFrame + tailFrames, plan.frames)
        var run = job
        run.segment = JobSpan(read: ReadSpan(keyframePTS: own.decodePTS, keyframeDTS: own.decodeDTS, firstIndex: own.decodeFrame,
                                          frameCount: readEnd - own.decodeFrame),
                           encoded: own.startFrame..<own.endFrame)
        let videoPart = job.outputs.video.map { files.video(segment, pathExtension: ($0 as NSString).pathExtension.lowercased()) }
        let landmarksPart = job.outputs.landmarks.map { _ in files.landmarks(segment) }
        run.outputs = JobOutputs(video: videoPart, csv: files.csv(segment), landmarks: landmarksPart)
        run.readFiles.append(ReadFile(path: files.plan, role: "the split plan"))
        let galleries = IdentityGalleries()
        let summary = try run.run(progress: progress, stop: stop, galleries: galleries)
        let written = [videoPart, files.csv(segment), landmarksPart].compactMap { $0 }
        func fail(_ reason: String) -> Error {
            for path in written { unlink(path) }
            return SegmentError.incomplete(job.input, segment: segment, reason: reason)
        }
        if summary.interrupted { throw fail("interrupted after \(summary.frames) frames; run it again") }
        if let problem = summary.readError { throw fail(problem) }
        guard summary.frames == readEnd - own.decodeFrame else {
            throw fail("\(summary.frames) frames read of the \(readEnd - own.decodeFrame) planned")
        }
        let identity = job.identity
        let record = SegmentRecord(
            segment: segment, segments: plan.segments.count, frames: plan.frames, startFrame: own.startFrame,
            endFrame: own.endFrame, decodeFrame: own.decodeFrame, input: plan.input, inputBytes: plan.inputBytes,
            inputModified: plan.inputModified, settings: settings,
            settingsShown: JobReport.settings(job).map { [$0.0, $0.1] }, reidentify: identity.reidentify,
            reidThreshold: identity.reidThreshold, reidWindow: identity.reidWindow, outputs: outputs,
            videoPart: videoPart.map { ($0 as NSString).lastPathComponent },
            landmarksPart: landmarksPart.map { ($0 as NSString).lastPathComponent },
            framesRead: summary.frames, readEnd: readEnd, seconds: summary.seconds, cpuSeconds: summary.statistics?.cpuSeconds,
            faces: summary.faces, shotCuts: summary.shotCutFrames, identities: SegmentRecord.identities(galleries.byID),
            identityEvents: galleries.events, identityRuns: galleries.runs)
        try record.write(to: files.record(segment), inputs: [job.input, files.plan])
        return (record, summary)
    }

    /// Every setting that shapes a run's result, in words (threads aside): segments stitched
    /// together must agree on them. Sets are listed sorted, so every process writes the same.
    package static func settings(of job: FaceTrackJob) -> String {
        let o = job.overlay
        let overlay = "kinds \(o.kinds.map(\.rawValue).sorted()), colour \(String(describing: o.boxColor)), "
            + "anonymize \(String(describing: o.anonymize)), mask \(o.maskScale), fill \(o.fillColor), "
            + "sprite \(o.eyeSprite.map { "\($0.width)x\($0.height)" } ?? "none")"
            + (o.maskShape == .ellipse ? "" : ", shape \(o.maskShape.rawValue)")
            + (o.maskImage.map { ", mask picture \($0.size.width)x\($0.size.height)" } ?? "")
        return ["detection \(job.detection)", "tracking \(job.tracking)", "identity \(job.identity)",
                "attributes \(job.attributes.rawValue)", "encoder \(job.encoder)", "overlay \(overlay)"].joined(separator: "; ")
    }
}

/// Options that cannot be used on a segment: a usage error.
package struct SegmentOptionError: Error, CustomStringConvertible, Sendable {
    /// One line.
    package let description: String
    init(_ description: String) { self.description = description }
}
