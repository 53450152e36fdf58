import Evaluation
import FaceTrack
import Foundation
import Pipeline
import Report

/// `facetrack check [MANIFEST]`: runs `process` on reference clips, scores them against their truth
/// and fails when a metric misses its threshold.
enum CheckCommand: Command {
    static let name = "check"
    static let synopsis = "check [MANIFEST] [--junit FILE]"
    static let summary = "run and score the reference clips (samples/manifest.json)"
    static let startsWorkers = true
    static let junit = Option.output("--junit", "FILE", help: "also write a JUnit XML report (one test case per clip)")
    static let updateGolden = Flag("--update-golden", help: "store this run's tracks CSVs as the accepted outputs")
    static let diff = Option.text("--diff", "DIR",
                                  help: "for each clip that fails: DIR/NAME.diff.mp4 (render --truth's visual diff), DIR/NAME.csv\n"
                                      + "(its tracks) and DIR/NAME.html (their report page), a CI artifact of what went wrong")
    static let options = [junit.spec, updateGolden.spec, diff.spec, CommonFlags.help.spec]

    static var help: String {
    """
    USAGE: facetrack check [MANIFEST] [--junit FILE] [--update-golden] [--diff DIR]

    Runs `process` on every clip of MANIFEST (default samples/manifest.json) with the clip's own
    options, scores the tracks against the clip's truth (as `facetrack eval`) and prints one line
    per clip: PASS, or FAIL with the metrics that missed their thresholds. Exits 1 when any clip
    fails. The tracks CSV of each run is compared with the stored one (golden/NAME.csv beside the
    manifest unless the manifest says otherwise) and a difference is reported, not failed.

    MANIFEST: {"clips": [{"name": "zoom", "clip": "zoom.mp4", "truth": "zoom.truth.csv",
                "options": ["--detector", "blazeface"], "iou": 0.5,
                "thresholds": {"recall": 0.95, "id_switches": 0}}]}
    Paths are relative to the manifest. A threshold is a minimum for precision, recall, f1,
    mean_iou, average_precision, mota, motp, idf1, idp, idr, true_positives, mostly_tracked, and a
    maximum for false_positives, misses, eye_error, id_switches, fragmentations, mostly_lost,
    predicted_tracks, untracked_predictions; mask_coverage and covered_faces are minimums,
    exposed_faces, exposing_frames and false_mask_share maximums.
    With --diff DIR, each failing clip leaves NAME.diff.mp4 (matched faces green, missed truth faces
    red, false detections yellow, ID switches ringed magenta), NAME.csv and NAME.html in DIR.

    OPTIONS:
    \(options.map(\.helpEntry).joined(separator: "\n"))
    """
    }

    /// The command: returns the exit status (0 all passed, 1 any failed).
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard arguments.positionals.count <= 1 else { throw UsageError("check takes at most one MANIFEST") }
        let manifest = try CheckManifest.load(path: arguments.positionals.first ?? "samples/manifest.json")
        // What check reads: no output (--junit, a golden file) may name one.
        let inputs = [manifest.path] + manifest.entries.flatMap { [$0.clip, $0.truth] }
        let junitPath = try arguments.value(junit)
        let diffFolder = try arguments.value(diff)
        if let junitPath, let input = inputs.first(where: { AtomicOutput.sameFile($0, junitPath) }) {
            throw AtomicOutputError.namesReadFile(junitPath, role: "\(input) (read by check)")
        }
        // The runs' CSVs go to a private folder of a fresh name (mkdtemp: mode 0700, never an existing one).
        let scratch = URL(fileURLWithPath: try privateFolder())
        defer { try? FileManager.default.removeItem(at: scratch) }

        var cases: [JUnitReport.Case] = []
        for entry in manifest.entries {
            let started = Date()
            let csv = scratch.appendingPathComponent(entry.name + ".csv").path
            var failures: [String] = [], error: String?, summary = "", note = ""
            do {
                let result = try runClip(entry, csv: csv)
                failures = entry.thresholds.compactMap { $0.failure(in: result) }
                summary = ["precision", "recall", "mean_iou", "mota", "idf1", "id_switches", "eye_error", "mask_coverage",
                           "exposing_frames"]
                    .map { "\($0) \(EvaluationResult.format($0, result.value(of: $0)))" }.joined(separator: ", ")
                note = try golden(entry, csv: csv, update: arguments.isSet(updateGolden), inputs: inputs)
            } catch let caught {
                error = "\(caught)"
            }
            if let diffFolder, error == nil, !failures.isEmpty {
                let made = writeDiff(entry, csv: csv, folder: diffFolder)
                note += (note.isEmpty ? "" : "; ") + made
            }
            let seconds = Date().timeIntervalSince(started)
            let status = error == nil && failures.isEmpty ? "PASS" : "FAIL"
            var line = "\(status) \(entry.name): "
            if let error { line += error } else {
                if !failures.isEmpty { line += failures.joined(separator: "; ") + " | " }
                line += summary
            }
            line += String(format: " (%.1f s)", seconds) + (note.isEmpty ? "" : "; " + note)
            print(Console.escapingControls(line))
            cases.append(JUnitReport.Case(name: entry.name, seconds: seconds, failures: failures, error: error, output: summary))
        }
        if let junitPath {
            try JUnitReport(suite: "facetrack check", cases: cases).write(to: junitPath, inputs: inputs)
        }
        let failed = cases.filter { $0.error != nil || !$0.failures.isEmpty }.count
        print("check: \(cases.count) clips, \(cases.count - failed) passed, \(failed) failed")
        return failed == 0 ? 0 : 1
    }

    /// The visual diff, the tracks and their report page of a failed clip in `folder`; says what
    /// it wrote (or why it could not).
    private static func writeDiff(_ entry: CheckManifest.Entry, csv: String, folder: String) -> String {
        let base = URL(fileURLWithPath: folder).appendingPathComponent(entry.name).path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var overlay = OverlayConfiguration()
            overlay.kinds = [.boxes, .labels]
            var render = RenderJob(input: entry.clip, tracks: csv, output: base + ".diff.mp4", overlay: overlay)
            render.truth = entry.truth
            render.iouThreshold = entry.iou
            _ = try render.run()
            if AtomicOutput.sameFile(csv, base + ".csv") == false {
                try? FileManager.default.removeItem(atPath: base + ".csv")
                try FileManager.default.copyItem(atPath: csv, toPath: base + ".csv")
            }
            _ = try ReportBuilder.fromCSV(base + ".csv", video: entry.clip, summary: nil, output: base + ".html")
            return "diff in \(base).diff.mp4, \(base).html"
        } catch {
            return "no diff: \(error)"
        }
    }

    /// A new folder only this user can enter, under the temporary folder.
    private static func privateFolder() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/facetrack-check.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw EvaluationError.unwritable(FileManager.default.temporaryDirectory.path,
                                             reason: "cannot make a temporary folder (\(String(cString: strerror(errno))))")
        }
        return String(cString: made)
    }

    /// Runs the clip's job (its manifest options, tracks to `csv`) in this process and scores its tracks.
    private static func runClip(_ entry: CheckManifest.Entry, csv: String) throws -> EvaluationResult {
        let truth = try TrackTable.load(path: entry.truth, requireIDs: true)
        let job: FaceTrackJob
        do {
            let arguments = try ParsedArguments(entry.options, options: JobOptions.options)
            guard arguments.positionals.isEmpty else { throw UsageError("unexpected \(arguments.positionals[0])") }
            job = try JobOptions(arguments).job(input: entry.clip, outputs: JobOutputs(csv: csv))
        } catch let usage as UsageError {
            throw CheckError.badOptions(entry.name, "\(usage)")
        }
        _ = try job.run()
        let prediction = try TrackTable.load(path: csv)
        return try Evaluator(iouThreshold: entry.iou, maskScale: job.overlay.maskScale, maskShape: job.overlay.countedMaskShape)
            .evaluate(truth: truth, prediction: prediction)
    }

    /// Stores the run's CSV as the golden one (`update`), or says whether it differs from it.
    private static func golden(_ entry: CheckManifest.Entry, csv: String, update: Bool, inputs: [String]) throws -> String {
        let manager = FileManager.default
        if update {
            let folder = URL(fileURLWithPath: entry.golden).deletingLastPathComponent()
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw EvaluationError.unwritable(entry.golden, reason: (error as NSError).localizedDescription)
            }
            let file = try BufferedTextFile(path: entry.golden, inputs: inputs)
            try file.write(try String(contentsOfFile: csv, encoding: .utf8))
            try file.finish()
            return "golden updated"
        }
        guard let stored = manager.contents(atPath: entry.golden) else { return "no golden output" }
        guard let current = manager.contents(atPath: csv) else { return "" }
        if stored == current { return "same as golden" }
        let old = String(decoding: stored, as: UTF8.self).split(separator: "\n"), new = String(decoding: current, as: UTF8.self).split(separator: "\n")
        let changed = zip(old, new).filter { $0 != $1 }.count + abs(old.count - new.count)
        return "differs from golden in \(changed) of \(max(old.count, new.count)) lines"
    }
}

/// A check clip whose options `process` rejects.
enum CheckError: Error, CustomStringConvertible {
    case badOptions(String, String)

    var description: String {
        switch self {
        case let .badOptions(name, reason): return "\(name): bad options in the manifest: \(reason)"
        }
    }
}
