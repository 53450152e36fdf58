import Attributes
import Detection
import FaceCore
import Foundation
import Report
import Tracking

/// `process --report FILE`: the HTML page of the run, written at its end from the run's own
/// tracks and input video. The file is opened (under a temporary name) before the run starts,
/// so an unwritable path fails first; the rows are kept in memory meanwhile.
package final class JobReport {
    let file: BufferedTextFile
    let collector = ReportCollector()

    init(path: String, inputs: [String]) throws {
        file = try BufferedTextFile(path: path, inputs: inputs)
    }

    /// Builds and writes the page (thumbnails by seeking in the input).
    func finish(job: FaceTrackJob, summary: ProcessingSummary) throws {
        var details = ReportDetails(input: job.input)
        details.settings = Self.settings(job)
        details.run = Self.run(summary)
        // With --known the run names people, as its CSV's person column does: the page groups by them.
        let rows = FaceRows(path: job.input, rows: collector.rows, hasPersonColumn: job.identity.knownFolder != nil)
        _ = try ReportBuilder.write(rows, video: job.input, details: details, to: file)
    }

    /// The detector and tracker settings, in words.
    package static func settings(_ job: FaceTrackJob) -> [(String, String)] {
        let d = job.detection
        var detector = d.detector.name
        switch d.detector {
        case .centerface(let settings): detector += ", input size \(settings.inputSize)"
        case .blazeface(let settings): detector += ", \(settings.model.rawValue) model"
        case .haar(let settings): detector += settings.fast ? ", LBP cascade" : ", Haar cascade"
        case .none: break
        }
        detector += String(format: ", threshold %.2f", d.effectiveThreshold)
        if d.minFaceSize > 0 { detector += String(format: ", min face %.0f px", d.minFaceSize) }
        if let maxFaces = d.maxFaces { detector += ", max \(maxFaces) faces" }
        var detection = "\(d.mode.rawValue)"
        if d.detectEvery > 1 { detection += ", every \(d.detectEvery) frames" }
        var tracking = "min hits \(job.tracking.minHits)"
        if let maxAge = job.tracking.maxAge { tracking += ", max age \(maxAge) frames" }
        if let threshold = job.tracking.trackThreshold { tracking += String(format: ", track threshold %.2f", threshold) }
        if !job.tracking.smoothing { tracking += ", no smoothing" }
        var result = [("Detector", detector), ("Detection", detection), ("Tracking", tracking)]
        if !job.attributes.isEmpty {
            let names = [(AttributeSelection.smile, "smile"), (.blink, "blink"), (.angle, "angle")]
                .filter { job.attributes.contains($0.0) }.map(\.1)
            result.append(("Attributes", names.joined(separator: ", ")))
        }
        return result
    }

    /// The run's time and statistics, in words.
    package static func run(_ s: ProcessingSummary) -> [(String, String)] {
        var result = [("Run time", String(format: "%.2f s (%.1f fps)", s.seconds, s.framesPerSecond))]
        var stats = "longest track \(s.longestTrack) frames"
        let p = s.detectionPasses
        stats += ", detector passes: \(p.full) whole-frame, \(p.crops) crops, \(p.tiles) tiles"
        if s.shotCuts > 0 { stats += ", \(s.shotCuts) shot cuts" }
        if s.damagedPackets > 0 { stats += ", \(s.damagedPackets) damaged packets skipped" }
        if s.corruptFrames > 0 { stats += ", \(s.corruptFrames) corrupt frames" }
        if s.invalidDetections > 0 { stats += ", \(s.invalidDetections) invalid detections dropped" }
        result.append(("Stats", stats))
        if let statistics = s.statistics {
            let total = max(statistics.cpuSeconds, 1e-9)
            let stages = statistics.stages.filter { $0.cpuSeconds >= 0.005 }
                .map { String(format: "%@ %.2f s (%.0f%%)", $0.name, $0.cpuSeconds, 100 * $0.cpuSeconds / total) }
            result.append(("CPU", String(format: "%.2f s, peak memory %.0f MiB: ", statistics.cpuSeconds,
                                         Double(statistics.peakMemoryBytes) / 1_048_576) + stages.joined(separator: ", ")))
        }
        if let readError = s.readError { result.append(("Warning", readError)) }
        if s.interrupted { result.append(("Warning", "interrupted: the page covers the frames done")) }
        return result
    }
}

/// Keeps every face of the run as a report row.
final class ReportCollector: FrameOutput {
    private(set) var rows: [FaceRow] = []

    func write(frame: Int, time: Double, faces: [TrackedFace]) throws {
        for face in faces {
            let o = face.observation
            var eyesClosed: Bool?
            if o.leftEyeClosed != nil || o.rightEyeClosed != nil { eyesClosed = (o.leftEyeClosed ?? true) && (o.rightEyeClosed ?? true) }
            rows.append(FaceRow(frame: frame, time: time, trackID: face.trackID, box: o.bounds, confidence: o.confidence,
                                predicted: face.source == .predicted, smiling: o.hasSmile, eyesClosed: eyesClosed, yaw: o.yaw,
                                person: face.person))
        }
    }

    func finish() throws {}
}
